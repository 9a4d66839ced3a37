import fs from 'node:fs';
import path from 'node:path';
import type { Build } from '@forge/shared';
import type { BrokenProject } from '@forge/testing';

/**
 * RepairBot's benchmark over the broken-project catalogue of @forge/testing. Each kind is built
 * twice by a real daemon: with autoRepair off (ScanBot's diagnosis, and the proposal with what its
 * trial on a copy showed), then, as another project, with autoRepair on (the repair made in place
 * and the build run again). Scored per kind:
 *
 * - pass@1: the repairable kinds end succeeded in that one build with the expected repair applied,
 *   and its proposal was verified ("the build passes"); kinds only their author can fix are "—";
 * - explained: the diagnosis names the expected code and file:line (the file alone when the
 *   failure has no line, e.g. a package.json);
 * - touched: the files that differ from the upload after the repaired build are all files the repair
 *   needed to change (the catalogue's repairedFiles); install and build outputs are not counted.
 */

export interface RepairOutcome {
  kind: string;
  project: string;
  /** null: not a repairable kind. */
  pass: boolean | null;
  explained: boolean;
  /** Files changed that the repair did not need to change. */
  overreach: string[];
  note?: string;
}

/** An upload Forge refused before any build (its plan could not be made): the error body it answered. */
export interface RefusedUpload {
  refused: { code: string; error: string; details?: unknown };
}

/** Builds a project (its ZIP uploaded under `name`) with autoRepair on or off, to its end. */
export type BuildProject = (
  name: string,
  project: BrokenProject,
  autoRepair: boolean,
) => Promise<Build | RefusedUpload>;

/** The refusal names the expected code and place (details.file, line, column). */
function refusalExplains(refused: RefusedUpload['refused'], expected: BrokenProject['expected']): boolean {
  const want = expected.refusedUpload;
  if (!want) return false;
  const details = (refused.details ?? {}) as { file?: unknown; line?: unknown; column?: unknown };
  return (
    refused.code === want.code &&
    details.file === want.file &&
    details.line === want.line &&
    (want.column === undefined || details.column === want.column)
  );
}

const NOT_COUNTED =
  /^(?:node_modules|\.git|dist|build|out|\.next|\.forge)(?:\/|$)|(?:^|\/)(?:package-lock\.json|pnpm-lock\.yaml|yarn\.lock|bun\.lockb?|node_modules\/.*)$/;

/** Project files that differ from the upload (changed, added or removed), outputs and lockfiles aside. */
export function changedFiles(
  projectDir: string,
  uploaded: Readonly<Record<string, string | Uint8Array>>,
): string[] {
  const now = new Map<string, Buffer>();
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(projectDir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (NOT_COUNTED.test(child) && !(child in uploaded)) continue;
      if (e.isDirectory()) walk(child);
      else if (e.isFile()) now.set(child, fs.readFileSync(path.join(projectDir, child)));
    }
  };
  walk('');
  const changed = new Set<string>();
  for (const [file, bytes] of now) {
    const before = uploaded[file];
    if (before === undefined || !bytes.equals(Buffer.from(before))) changed.add(file);
  }
  for (const file of Object.keys(uploaded)) if (!now.has(file) && !NOT_COUNTED.test(file)) changed.add(file);
  return [...changed].sort();
}

export async function runRepairCases(
  kinds: Readonly<Record<string, BrokenProject>>,
  build: BuildProject,
  projectDir: (name: string) => string,
): Promise<RepairOutcome[]> {
  const outcomes: RepairOutcome[] = [];
  // Proposals first (autoRepair off), one kind after another, then the repairs in place.
  const proposed: Record<string, Build | RefusedUpload> = {};
  for (const [kind, project] of Object.entries(kinds))
    proposed[kind] = await build(project.name, project, false);
  for (const [kind, project] of Object.entries(kinds)) {
    const { expected } = project;
    const answer = proposed[kind]!;
    if ('refused' in answer) {
      // Refused at the upload (nothing to build, so nothing to repair): explained by the refusal.
      const explained = refusalExplains(answer.refused, expected);
      outcomes.push({
        kind,
        project: project.name,
        pass: null,
        explained,
        overreach: [],
        ...(explained ? {} : { note: `upload refused: ${JSON.stringify(answer.refused)}` }),
      });
      continue;
    }
    const first = answer;
    const notes: string[] = [];
    const d = first.diagnosis;
    let explained: boolean;
    if (!expected.diagnosis) explained = first.status === 'succeeded' || d === null || d === undefined;
    else {
      explained =
        !!d &&
        d.code === expected.diagnosis.code &&
        (expected.diagnosis.file === undefined || d.file === expected.diagnosis.file) &&
        (expected.diagnosis.line === undefined || d.line === expected.diagnosis.line);
      if (!explained)
        notes.push(`diagnosis ${d ? `${d.code} at ${d.file ?? '?'}:${d.line ?? '?'}` : 'none'}`);
    }
    let pass: boolean | null = null;
    let overreach: string[] = [];
    if (expected.repair) {
      const name = `${project.name}-auto`;
      const answered = await build(name, { ...project, name }, true);
      if ('refused' in answered)
        throw new Error(`the upload of ${name} was refused: ${answered.refused.error}`);
      const auto = answered;
      const applied = auto.repairs.find((r) => r.code === expected.repair && r.status === 'applied');
      // Without a failure there is nothing to propose (a plan that uses the framework's build).
      const offer = first.repairs.find((r) => r.code === expected.repair);
      const verified = first.status === 'succeeded' || offer?.verification?.status === 'passes';
      pass = auto.status === 'succeeded' && (applied !== undefined || !expected.diagnosis) && verified;
      if (!pass)
        notes.push(
          `auto build ${auto.status}${applied ? '' : ', no repair applied'}; proposal ${offer ? (offer.verification?.detail ?? 'untried') : 'none'}`,
        );
      overreach = changedFiles(projectDir(name), project.files).filter(
        (f) => !expected.repairedFiles.includes(f),
      );
    }
    outcomes.push({
      kind,
      project: project.name,
      pass,
      explained,
      overreach,
      ...(notes.length ? { note: notes.join('; ') } : {}),
    });
  }
  return outcomes;
}

export function score(outcomes: readonly RepairOutcome[]) {
  const repairable = outcomes.filter((o) => o.pass !== null);
  return {
    kinds: outcomes.length,
    repairable: repairable.length,
    passed: repairable.filter((o) => o.pass).length,
    explained: outcomes.filter((o) => o.explained).length,
    overreach: outcomes.reduce((n, o) => n + o.overreach.length, 0),
  };
}

/** The Markdown table docs/assistants.md shows. */
export function table(outcomes: readonly RepairOutcome[]): string {
  const rows = outcomes.map(
    (o) =>
      `| ${o.kind} | ${o.pass === null ? '—' : o.pass ? 'yes' : 'no'} | ${o.explained ? 'yes' : 'no'} | ${o.overreach.length ? o.overreach.join(', ') : 'none'} |`,
  );
  const s = score(outcomes);
  return [
    '| Broken kind | pass@1 (repaired, rebuilt green) | explained (code, file:line) | files changed beyond need |',
    '| --- | --- | --- | --- |',
    ...rows,
    `| **${s.kinds} kinds** | **${s.passed} / ${s.repairable}** | **${s.explained} / ${s.kinds}** | **${s.overreach}** |`,
  ].join('\n');
}
