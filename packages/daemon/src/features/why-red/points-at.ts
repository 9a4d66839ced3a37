import type { Build, BuildDiff, DiagnosisCode, DiffPointer, FileChange, ValueChange } from '@forge/shared';

export interface PointsAtInput {
  /** The failed build: its error, its tools' errors and ScanBot's diagnosis. */
  build: Pick<Build, 'error' | 'diagnosis' | 'steps'>;
  greenId: string;
  changedFiles: ReadonlyMap<string, FileChange['status']>;
  dependencies: BuildDiff['dependencies'];
  toolchain: ValueChange[];
  plan: ValueChange[];
  env: BuildDiff['env'];
}

/** Diagnoses whose subjects are package names (or name@version). */
const PACKAGE_SUBJECTS: ReadonlySet<DiagnosisCode> = new Set([
  'MISSING_PACKAGE',
  'PEER_DEPENDENCY_CONFLICT',
  'MISMATCHED_PACKAGE_VERSIONS',
  'PACKAGE_NOT_ON_REGISTRY',
  'LOCKFILE_OUT_OF_SYNC',
]);
/** Diagnoses that are about the tools the build ran with. */
const TOOL_CODES: ReadonlySet<DiagnosisCode> = new Set([
  'NODE_VERSION_MISMATCH',
  'TOOLCHAIN_MISSING',
  'PACKAGE_MANAGER_MISSING',
]);
/** The plan's command each failing step runs. */
const STEP_COMMAND: Record<string, string> = {
  install: 'install',
  build: 'build',
  test: 'test',
  start: 'start',
};

/** "react@19.1.0" → "react", "@scope/pkg@1" → "@scope/pkg". */
const packageName = (subject: string): string =>
  /^(@[^/@\s]+\/[^@\s]+|[^@\s]+)/.exec(subject)?.[1] ?? subject;

const NODE_MODULES_PATH = /node_modules\/((?:@[\w.-]+\/)?[\w.-]+)/g;
const QUOTED_SPECIFIER = /["'`]((?:@[\w.-]+\/)?[\w.-]+)(?:\/[^"'`\s]*)?["'`]/g;

const where = (file: string, line: number | undefined): string => (line ? `${file}:${line}` : file);

/**
 * Which of the changes a failure points at, strongest first: the files its errors are in, the
 * packages its diagnosis names (or its errors name under node_modules, or as an import), a tool it
 * is about, the plan's command of the step that failed, the variables it misses that the plan no
 * longer sets. Only a change that is in the comparison is ever named.
 */
export function pointsAt(input: PointsAtInput): DiffPointer[] {
  const { build, greenId } = input;
  const error = build.error;
  const diagnosis = build.diagnosis;
  const pointers: DiffPointer[] = [];
  const since = `since ${greenId}`;

  // Files: the diagnosis's first, then every other error's.
  const places: Array<{ file: string; line?: number | undefined; message: string }> = [];
  if (diagnosis?.file)
    places.push({ file: diagnosis.file, line: diagnosis.line, message: diagnosis.summary });
  for (const other of diagnosis?.others ?? [])
    if (other.file) places.push({ file: other.file, line: other.line, message: other.summary });
  if (error?.location)
    places.push({
      file: error.location.file,
      line: error.location.line,
      message: error.firstLine ?? error.message,
    });
  for (const e of error?.errors ?? [])
    if (e.file) places.push({ file: e.file, line: e.line, message: e.message });
  const seenFiles = new Set<string>();
  for (const p of places) {
    const file = p.file.replace(/^\.\//, '');
    const status = input.changedFiles.get(file);
    if (!status || seenFiles.has(file)) continue;
    seenFiles.add(file);
    pointers.push({
      kind: 'file',
      name: file,
      reason: `The error is in ${where(file, p.line)} (${oneLine(p.message)}), and ${file} was ${status === 'added' ? 'added' : 'modified'} ${since}.`,
    });
  }

  // Packages: named by the diagnosis, or by the errors' text.
  const deps = input.dependencies;
  const named: string[] = [];
  if (diagnosis && PACKAGE_SUBJECTS.has(diagnosis.code))
    for (const s of diagnosis.subjects ?? []) named.push(packageName(s));
  for (const other of diagnosis?.others ?? [])
    if (PACKAGE_SUBJECTS.has(other.code)) for (const s of other.subjects ?? []) named.push(packageName(s));
  const texts = [
    error?.firstLine,
    error?.message,
    ...(error?.errors ?? []).flatMap((e) => [e.file, e.message]),
  ];
  for (const t of texts) {
    if (!t) continue;
    for (const m of t.matchAll(NODE_MODULES_PATH)) named.push(m[1]!);
    for (const m of t.matchAll(QUOTED_SPECIFIER)) named.push(m[1]!);
  }
  const seenPackages = new Set<string>();
  const why = diagnosis ? `the failure (${diagnosis.code}) names it` : 'the error names it';
  for (const name of named) {
    if (seenPackages.has(name)) continue;
    const changed = deps.changed.find((c) => c.name === name);
    const added = deps.added.find((a) => a.name === name);
    const removed = deps.removed.find((r) => r.name === name);
    if (!changed && !added && !removed) continue;
    seenPackages.add(name);
    const what = changed
      ? `${changed.upgrade ? 'was upgraded' : 'changed'} from ${changed.from} to ${changed.to}`
      : added
        ? `was added at ${added.version}`
        : `was removed (it was ${removed!.version})`;
    pointers.push({ kind: 'dependency', name, reason: `${name} ${what} ${since}, and ${why}.` });
  }

  if (diagnosis && TOOL_CODES.has(diagnosis.code)) {
    for (const t of input.toolchain) {
      pointers.push({
        kind: 'toolchain',
        name: t.name,
        reason: `The failure is about the toolchain (${diagnosis.code}), and ${t.name} changed from ${t.from ?? '(none)'} to ${t.to ?? '(none)'} ${since}.`,
      });
    }
  }

  const failedStep = [...build.steps].reverse().find((s) => s.status === 'failed')?.name;
  const command = failedStep ? STEP_COMMAND[failedStep] : undefined;
  for (const p of input.plan) {
    const byStep = command !== undefined && p.name === command;
    const byCode =
      (diagnosis?.code === 'OUTPUT_MISSING' || error?.code === 'OUTPUT_MISSING') &&
      (p.name === 'outputDir' || p.name === 'build' || p.name === 'framework');
    if (!byStep && !byCode) continue;
    pointers.push({
      kind: 'plan',
      name: p.name,
      reason: `The ${failedStep ?? 'build'} step failed, and the plan's ${p.name} changed from ${p.from ?? '(none)'} to ${p.to ?? '(none)'} ${since}.`,
    });
  }

  if (diagnosis?.code === 'MISSING_ENV') {
    for (const name of diagnosis.subjects ?? []) {
      if (!input.env.removed.includes(name)) continue;
      pointers.push({
        kind: 'env',
        name,
        reason: `The app stopped for want of ${name}, which the plan set for ${greenId} and no longer sets.`,
      });
    }
  }
  return pointers;
}

const oneLine = (text: string): string => {
  const first = text.split('\n')[0]!.trim();
  return first.length > 160 ? `${first.slice(0, 157)}…` : first;
};

const label = (p: DiffPointer, diff: Pick<BuildDiff, 'dependencies'>): string => {
  switch (p.kind) {
    case 'file':
      return p.name;
    case 'dependency': {
      const c = diff.dependencies.changed.find((x) => x.name === p.name);
      return c ? `${p.name} ${c.from} → ${c.to}` : p.name;
    }
    case 'toolchain':
      return `${p.name} version`;
    case 'plan':
      return `the plan's ${p.name}`;
    case 'env':
      return `${p.name} (no longer set)`;
  }
};

/** The line shown first: what the failure points at, or that it points at none of the changes. */
export function summaryOf(diff: Omit<BuildDiff, 'summary'>): string {
  const green = `${diff.greenBuildId}, the last green build`;
  if (diff.pointsAt.length > 0) {
    return `Points at: ${diff.pointsAt.map((p) => label(p, diff)).join(', ')} — changed since ${green}.`;
  }
  const f = diff.files;
  const d = diff.dependencies;
  const counts = [
    `${f.added + f.removed + f.modified} file(s)`,
    `${d.added.length + d.removed.length + d.changed.length + d.more} package(s)`,
    `${diff.toolchain.length} tool(s)`,
    `${diff.plan.length} plan field(s)`,
    `${diff.env.added.length + diff.env.removed.length} environment name(s)`,
  ];
  const at = diff.failure.file ? ` (${where(diff.failure.file, diff.failure.line ?? undefined)})` : '';
  return `Points at: none of the changes — the error${at} is not in what changed since ${green}: ${counts.join(', ')} changed.`;
}
