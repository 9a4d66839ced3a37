import path from 'node:path';
import { formatBytes, formatDuration, type Build, type Repair } from '@forge/shared';
import { searchCode } from './code-search.ts';
import { commandText, fileFacts, type FactServices, type ManifestEntry, type ProjectFacts } from './facts.ts';
import type { Subject } from './subject.ts';
import fs from 'node:fs/promises';

/** What a question was about: the BrainBot card says it, never the question itself. */
export type Intent =
  | 'help'
  | 'status'
  | 'remember'
  | 'recall'
  | 'forget'
  | 'memories'
  | 'projects'
  | 'blueprint'
  | 'scripts'
  | 'files'
  | 'find-file'
  | 'builds'
  | 'build'
  | 'failure'
  | 'tests'
  | 'repairs'
  | 'logs'
  | 'steps'
  | 'dependencies'
  | 'code'
  | 'bot'
  | 'changes'
  | 'guest'
  | 'unknown'
  | 'model';

/**
 * Whether the answer holds what was asked (`known`: from Forge's records or the memory) or says
 * plainly that it does not (`unknown`), with what would let it answer.
 */
export type Certainty = 'known' | 'unknown';

export interface EngineAnswer {
  text: string;
  intent: Intent;
  certainty: Certainty;
  /** The project the answer is about, when it is about one. */
  project?: string | null;
  /** For an unknown: what would let the brain answer ("a build of shop first", "a language model"). */
  needs?: string;
}

export const known = (intent: Intent, text: string, project?: string | null): EngineAnswer => ({
  intent,
  text,
  certainty: 'known',
  ...(project !== undefined ? { project } : {}),
});

export const unknown = (text: string, needs: string, project?: string | null): EngineAnswer => ({
  intent: 'unknown',
  text,
  certainty: 'unknown',
  needs,
  ...(project !== undefined ? { project } : {}),
});

export const STATUS_WORDS: Record<Build['status'], string> = {
  queued: 'is waiting for a slot',
  running: 'is running',
  succeeded: 'succeeded',
  failed: 'failed',
  'timed-out': 'timed out',
  cancelled: 'was cancelled',
  interrupted: 'was interrupted by a daemon restart',
};

export const isFailure = (b: Build): boolean =>
  b.status === 'failed' || b.status === 'timed-out' || b.status === 'interrupted';
/** A build whose own steps passed but whose tests did not: a failure to the developer. */
export const testsFailed = (b: Build): boolean => b.test?.ran === true && b.test.passed === false;

/** "src/App.tsx:12:5" */
export const place = (file: string, line?: number | null, column?: number): string =>
  `${file}${line ? `:${line}${column ? `:${column}` : ''}` : ''}`;

/** "at 2025-03-01 10:00:00 UTC, 5 minutes ago": an exact time and how long ago. */
export function when(iso: string, now: number): string {
  const exact = `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
  return `${exact} (${ago(iso, now)})`;
}

export function ago(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  const days = Math.round(hours / 24);
  return `${days} days ago`;
}

const endOf = (b: Build): string => b.endedAt ?? b.createdAt;

/** Why a build failed: ScanBot's diagnosis when it made one, else the build's own error. */
export function failureText(build: Build): string {
  const d = build.diagnosis;
  if (d) {
    const lines = [`Cause: ${d.summary}${d.file ? ` (${place(d.file, d.line, d.column)})` : ''}`];
    if (d.suggestion) lines.push(`Suggestion: ${d.suggestion}`);
    return lines.join('\n');
  }
  const e = build.error;
  if (!e) return 'It left no error.';
  const lines = [`Error: ${e.message}`];
  if (e.firstLine && e.firstLine !== e.message) lines.push(`First error line: ${e.firstLine}`);
  if (e.location) lines.push(`At ${place(e.location.file, e.location.line, e.location.column)}`);
  if (e.probableCause) lines.push(`Likely cause: ${e.probableCause}`);
  return lines.join('\n');
}

export const repairLine = (r: Repair): string =>
  `- ${r.summary} (${r.status}${r.files.length ? `; ${r.files.join(', ')}` : ''})`;

export function repairsText(build: Build): string | null {
  if (build.repairs.length === 0) return null;
  return [`Repairs of ${build.id}:`, ...build.repairs.map(repairLine)].join('\n');
}

/** Lines of a test runner's output that name a failing test, its error or its place. */
const FAILING_LINE =
  /^\s*(?:not ok\b|FAIL\b|✗|×|✕|●|\d+\) )|(?:AssertionError|Error:|Expected|expected .* to |!==|===|location:|❯ .*:\d+)/;
/** Lines that count tests ("# fail 1", "Tests  1 failed | 3 passed", "2 failing"). */
const SUMMARY_LINE =
  /^\s*(?:#\s*(?:tests|pass|fail)\b|Tests?\s+\d|Test Files\s|\d+\s+(?:passing|failing|passed|failed)\b)/;

/**
 * The lines of a test output worth quoting: the failing tests with their errors and places (paths
 * made project-relative), then the counts; else the last lines.
 */
export function testLines(outputTail: string, projectDir: string | null): string[] {
  const relative = (line: string) => {
    let out = line.replace(/file:\/\//g, '');
    if (projectDir) out = out.split(`${projectDir.replace(/\/+$/, '')}/`).join('');
    return out;
  };
  const lines = outputTail
    .split('\n')
    .map((l) => relative(l.trimEnd()))
    .filter((l) => l.trim() !== '');
  const failing = lines.filter((l) => FAILING_LINE.test(l) && !SUMMARY_LINE.test(l));
  const summary = lines.filter((l) => SUMMARY_LINE.test(l));
  if (failing.length === 0 && summary.length === 0) return lines.slice(-8);
  return [...new Set([...failing.slice(0, 8), ...summary.slice(0, 4)])];
}

/** The test report of a build in a few lines: verdict, command, time, and the failing tests or the counts. */
export function testText(build: Build, now: number, projectDir: string | null = null): string {
  const t = build.test!;
  if (!t.ran) {
    return `TestBot did not run the tests in build ${build.id}${t.reason ? `: ${t.reason}` : ''}.`;
  }
  const verdict = t.passed === true ? 'passed' : t.passed === false ? 'failed' : 'gave no verdict';
  const lines = [
    `The tests ${verdict} in build ${build.id}, ${when(endOf(build), now)}: ${t.command ?? 'the test script'} ran for ${formatDuration(t.durationMs)}.`,
  ];
  if (t.reason) lines.push(t.reason);
  const quoted = testLines(t.outputTail, projectDir);
  if (quoted.length) {
    lines.push(
      t.passed === false ? 'From the test output:' : 'Last lines of the test output:',
      ...quoted.map((l) => `  ${l.trim()}`),
    );
  }
  return lines.join('\n');
}

const listEntries = (entries: ManifestEntry[], file: string, limit = 30): string[] =>
  entries.slice(0, limit).map((e) => `- ${e.name}: ${e.value}${e.line ? ` (${place(file, e.line)})` : ''}`);

/** Words of a question about dependencies that are not a package's name. */
const DEPENDENCY_WORDS = new Set(
  (
    'depend depends dependent dependency dependencies deps dev devdependencies peer package packages ' +
    'library libraries version versions installed install lockfile node_modules declare declares declared ' +
    'have has need needs require requires required'
  ).split(' '),
);

const BUILD_NEEDED = (name: string) => `a build of ${name} first (say "build: ${name}" in the chat)`;

export interface AnswerDeps {
  services: FactServices;
  now: () => number;
}

/** Answers from Forge's records about one project (or one of its builds): every fact names its source. */
export function createRecordAnswers({ services, now }: AnswerDeps) {
  const dirOf = (facts: ProjectFacts): string => services.layout.projectDir(facts.name);
  function plan(facts: ProjectFacts, s: Subject): EngineAnswer {
    const planned = facts.builds.find((b) => b.blueprint);
    const bp = facts.blueprint;
    if (!bp || !planned) {
      return unknown(
        `I don't know ${facts.name}'s plan yet: BlueprintBot plans a project when it builds it, and ${facts.name} has no build with a plan.`,
        BUILD_NEEDED(facts.name),
        facts.name,
      );
    }
    const kind = {
      'static-build': 'a site built to static files',
      static: 'a static site (served as is)',
      server: 'a server app',
      unknown: 'a project Forge does not know how to build',
    }[bp.kind];
    const lines = [
      `${facts.name} is ${kind}: framework ${bp.framework}${bp.packageManager ? `, package manager ${bp.packageManager}` : ''}.`,
    ];
    const commands = (
      [
        ['Install', bp.install],
        ['Build', bp.build],
        ['Test', bp.test],
        ['Start', bp.start],
      ] as const
    )
      .filter(([, argv]) => argv)
      .map(([label, argv]) => `${label}: ${commandText(argv)}`);
    if (commands.length) lines.push(commands.join('. ') + '.');
    if (bp.outputDir) lines.push(`Output folder: ${bp.outputDir}.`);
    if (bp.apps.length > 1) lines.push(`It holds ${bp.apps.length} apps; Forge builds ${bp.appDir}.`);
    if (bp.node) {
      lines.push(
        `Node: it asks for ${bp.node.wanted} (${bp.node.file}); this machine has ${bp.node.current}${bp.node.satisfied === false ? ', which does not satisfy it' : ''}.`,
      );
    } else if (/\bnode\b/.test(s.rest)) {
      lines.push(
        "Node: it asks for no version (no engines.node in package.json, no .nvmrc or .node-version), so Forge builds it with this machine's Node.",
      );
    }
    lines.push(`Planned by BlueprintBot in build ${planned.id}, ${when(planned.createdAt, now())}.`);
    // The decisions the question names first ("why pnpm?"), then the rest.
    const words = s.terms.filter((t) => t.length > 2);
    const named = bp.decisions.filter((d) =>
      words.some((w) => d.field.toLowerCase().includes(w) || d.value.toLowerCase().includes(w)),
    );
    const decisions = [...named, ...bp.decisions.filter((d) => !named.includes(d))].slice(0, 12);
    if (decisions.length) {
      lines.push(
        'Decisions, with their evidence:',
        ...decisions.map(
          (d) => `- ${d.field} = ${d.value}: ${d.rule}${d.file ? ` (${d.file})` : ' (default)'}`,
        ),
      );
      if (bp.decisions.length > decisions.length)
        lines.push(`…and ${bp.decisions.length - decisions.length} more (forge plan ${facts.name}).`);
    }
    return known('blueprint', lines.join('\n'), facts.name);
  }

  function scripts(facts: ProjectFacts): EngineAnswer {
    const m = facts.manifest;
    const entries = m?.scripts ?? [];
    const lines =
      entries.length > 0
        ? [`Scripts in ${facts.name}'s ${m!.file}:`, ...listEntries(entries, m!.file)]
        : [`${facts.name} has no package.json scripts.`];
    const bp = facts.blueprint;
    if (bp) {
      const run = (
        [
          ['install', bp.install],
          ['build', bp.build],
          ['test', bp.test],
          ['start', bp.start],
        ] as const
      )
        .filter(([, argv]) => argv)
        .map(([label, argv]) => `${label} with ${commandText(argv)}`);
      if (run.length) lines.push(`Forge runs: ${run.join('; ')}.`);
    }
    return known('scripts', lines.join('\n'), facts.name);
  }

  function dependencies(facts: ProjectFacts, s: Subject): EngineAnswer {
    const m = facts.manifest;
    if (!m) {
      return known(
        'dependencies',
        `${facts.name} has no package.json, so it declares no npm dependencies.`,
        facts.name,
      );
    }
    const all = [
      ...m.dependencies.map((e) => ({ ...e, section: 'dependencies' })),
      ...m.devDependencies.map((e) => ({ ...e, section: 'devDependencies' })),
      ...m.peerDependencies.map((e) => ({ ...e, section: 'peerDependencies' })),
    ];
    const asked = all.filter((e) => s.terms.includes(e.name.toLowerCase()));
    if (asked.length > 0) {
      return known(
        'dependencies',
        asked
          .map((e) => `${e.name} ${e.value} is in ${facts.name}'s ${e.section} (${place(m.file, e.line)}).`)
          .join('\n'),
        facts.name,
      );
    }
    const pkgTerm = s.terms.find((t) => /^[@a-z0-9][\w./@-]*$/.test(t) && !DEPENDENCY_WORDS.has(t));
    const lines: string[] = [];
    if (pkgTerm) lines.push(`${pkgTerm} is not in ${facts.name}'s ${m.file}.`);
    lines.push(
      `${facts.name} declares ${m.dependencies.length} dependencies and ${m.devDependencies.length} devDependencies in ${m.file}.`,
    );
    if (m.dependencies.length) lines.push('dependencies:', ...listEntries(m.dependencies, m.file));
    if (m.devDependencies.length) lines.push('devDependencies:', ...listEntries(m.devDependencies, m.file));
    const install = facts.builds.find((b) => b.steps.some((st) => st.name === 'install'));
    const step = install?.steps.findLast((st) => st.name === 'install');
    if (install && step) {
      lines.push(
        `The last install (build ${install.id}) ${step.status}${step.durationMs !== null ? ` in ${formatDuration(step.durationMs)}` : ''}${step.detail ? `: ${step.detail}` : ''}.`,
      );
    }
    return known('dependencies', lines.join('\n'), facts.name);
  }

  function lastFailure(facts: ProjectFacts): Build | undefined {
    return facts.builds.find((b) => isFailure(b) || testsFailed(b));
  }

  function failure(facts: ProjectFacts, build: Build | null): EngineAnswer {
    if (facts.builds.length === 0) {
      return unknown(
        `I don't know why ${facts.name} would fail: it has not been built yet.`,
        BUILD_NEEDED(facts.name),
        facts.name,
      );
    }
    const failed = build ?? lastFailure(facts);
    if (!failed) {
      const tested = facts.builds.find((b) => b.test?.ran);
      const newest = facts.builds[0]!;
      const count = facts.builds.length;
      const repaired = repairsText(newest);
      return known(
        'failure',
        [
          `${count === 1 ? `${facts.name}'s only build did not fail` : `None of ${facts.name}'s ${count} recent builds failed`}${tested ? `, and its tests passed (last run in build ${tested.id})` : ''}. The last one, ${newest.id}, ${STATUS_WORDS[newest.status]} ${when(endOf(newest), now())}${repaired ? ' after RepairBot repaired it on the way' : ''}.`,
          ...(repaired ? [repaired] : []),
          ...(newest.diagnosis && repaired
            ? [
                `What it had hit: ${newest.diagnosis.summary}${newest.diagnosis.file ? ` (${place(newest.diagnosis.file, newest.diagnosis.line, newest.diagnosis.column)})` : ''}`,
              ]
            : []),
        ].join('\n'),
        facts.name,
      );
    }
    const lines: string[] = [];
    const newest = facts.builds[0]!;
    const label = failed === newest ? `The last build of ${facts.name}` : `An earlier build of ${facts.name}`;
    if (isFailure(failed)) {
      const step = failed.steps.findLast((st) => st.status === 'failed' || st.status === 'timed-out');
      lines.push(
        `${label} (${failed.id}) ${STATUS_WORDS[failed.status]} ${when(endOf(failed), now())}${step ? `, in the ${step.name} step (${step.botName})` : ''}.`,
        failureText(failed),
      );
      if (testsFailed(failed)) lines.push(testText(failed, now(), dirOf(facts)));
    } else if (testsFailed(failed)) {
      lines.push(
        `${label} (${failed.id}) built, but its tests failed, ${when(endOf(failed), now())}.`,
        testText(failed, now(), dirOf(facts)),
      );
    } else {
      lines.push(
        `Build ${failed.id} of ${facts.name} did not fail: it ${STATUS_WORDS[failed.status]} ${when(endOf(failed), now())}.`,
      );
    }
    const repairs = repairsText(failed);
    if (repairs) lines.push(repairs);
    if (!build && failed !== newest) {
      lines.push(
        `Since then: build ${newest.id} ${STATUS_WORDS[newest.status]} ${when(endOf(newest), now())}.`,
      );
    }
    return known('failure', lines.join('\n'), facts.name);
  }

  function tests(facts: ProjectFacts, build: Build | null): EngineAnswer {
    const tested = build ? (build.test ? build : null) : facts.builds.find((b) => b.test !== null);
    if (!tested) {
      if (build) {
        return known(
          'tests',
          `Build ${build.id} of ${facts.name} ran no tests (it ${STATUS_WORDS[build.status]}${build.status === 'failed' ? ' before the test step' : ''}).`,
          facts.name,
        );
      }
      if (facts.blueprint && !facts.blueprint.test) {
        return known(
          'tests',
          `${facts.name} has no tests Forge can run: its plan has no test command (no "test" script in package.json), so TestBot skips it.`,
          facts.name,
        );
      }
      return unknown(
        `I don't know how ${facts.name}'s tests do: no build of it has run them yet.`,
        BUILD_NEEDED(facts.name),
        facts.name,
      );
    }
    const lines = [`${facts.name}: ${testText(tested, now(), dirOf(facts))}`];
    const repairs = facts.repairs.filter((r) => r.buildId === tested.id);
    if (repairs.length) lines.push(`RepairBot for that build:`, ...repairs.map(repairLine));
    return known('tests', lines.join('\n'), facts.name);
  }

  function repairs(facts: ProjectFacts, build: Build | null): EngineAnswer {
    const byId = new Map<string, Repair>();
    for (const r of facts.repairs) byId.set(r.id, r);
    for (const b of facts.builds) for (const r of b.repairs) if (!byId.has(r.id)) byId.set(r.id, r);
    let list = [...byId.values()].sort((a, b) => b.at.localeCompare(a.at));
    if (build) list = list.filter((r) => r.buildId === build.id);
    if (list.length === 0) {
      const failed = lastFailure(facts);
      return known(
        'repairs',
        [
          `RepairBot has made no repairs to ${facts.name}${build ? ` in build ${build.id}` : ''}: its repair journal has none${build ? ' for that build' : ''}.`,
          ...(failed && !build
            ? [
                failed.diagnosis?.repair
                  ? `Its last failure (${failed.id}, ${when(endOf(failed), now())}) has a repair ScanBot named (${failed.diagnosis.repair}) that was not made: forge fix ${failed.id} makes it.`
                  : `Its last failure (${failed.id}, ${when(endOf(failed), now())}) had no repair it could make safely.`,
                ...(isFailure(failed) ? [failureText(failed)] : [testText(failed, now(), dirOf(facts))]),
              ]
            : []),
        ].join('\n'),
        facts.name,
      );
    }
    const lines = [
      `RepairBot's repairs to ${facts.name}${build ? ` in build ${build.id}` : ''}, newest first:`,
      ...list
        .slice(0, 10)
        .map(
          (r) =>
            `- ${r.id}: ${r.summary} — ${r.status}, ${when(r.at, now())}${r.buildId ? `, build ${r.buildId}` : ''}${r.files.length ? `; files: ${r.files.join(', ')}` : ''}`,
        ),
    ];
    if (list.length > 10)
      lines.push(`…and ${list.length - 10} more (GET /api/projects/${facts.name}/repairs).`);
    const applied = list.filter((r) => r.status === 'applied');
    if (applied.length) lines.push(`Undo the newest applied one with: forge fix --undo ${applied[0]!.id}`);
    return known('repairs', lines.join('\n'), facts.name);
  }

  function pickBuild(facts: ProjectFacts, build: Build | null): Build | null {
    return build ?? facts.builds.find((b) => b.status !== 'queued') ?? facts.builds[0] ?? null;
  }

  function logs(facts: ProjectFacts, build: Build | null): EngineAnswer {
    const b = pickBuild(facts, build);
    if (!b)
      return unknown(
        `I don't know: ${facts.name} has no build logs yet.`,
        BUILD_NEEDED(facts.name),
        facts.name,
      );
    const last = services.repo.lastLogSeq(b.id);
    const rows = services.repo.logs(b.id, Math.max(0, last - 12), 12);
    if (rows.length === 0) {
      return known('logs', `Build ${b.id} of ${facts.name} has no stored log lines.`, facts.name);
    }
    const errors = services.repo
      .logs(b.id, 0, 5_000)
      .filter((r) => r.level === 'error')
      .slice(-5);
    const lines = [
      `Log of build ${b.id} of ${facts.name} (${b.logCount} lines${b.logTruncated ? ', cut at the cap' : ''}), ${STATUS_WORDS[b.status]} ${when(endOf(b), now())}.`,
    ];
    if (errors.length) {
      lines.push(
        'Error lines:',
        ...errors.map((r) => `  #${r.seq} ${r.ts.slice(11, 19)} ${r.botName}: ${r.message}`),
      );
    }
    lines.push(
      'Last lines:',
      ...rows.map((r) => `  #${r.seq} ${r.ts.slice(11, 19)} ${r.botName}: ${r.message}`),
    );
    lines.push(`All of it: forge logs ${b.id}`);
    return known('logs', lines.join('\n'), facts.name);
  }

  function steps(facts: ProjectFacts, build: Build | null, s: Subject): EngineAnswer {
    const b = pickBuild(facts, build);
    if (!b)
      return unknown(
        `I don't know: ${facts.name} has not been built yet.`,
        BUILD_NEEDED(facts.name),
        facts.name,
      );
    // "how long did the last build take?" asks for the whole build; "the build step" for one step.
    const wholeBuild = /\bbuild\b(?!\s+step)/.test(s.rest);
    const askedStep = b.steps.filter(
      (st) => s.terms.includes(st.name) && !(st.name === 'build' && wholeBuild),
    );
    const shown = askedStep.length ? askedStep : b.steps;
    const lines = [
      `Steps of build ${b.id} of ${facts.name} (${STATUS_WORDS[b.status]} ${when(endOf(b), now())}${b.durationMs !== null ? `, ${formatDuration(b.durationMs)} in all` : ''}):`,
      ...shown.map(
        (st) =>
          `- ${st.name}${st.attempt > 1 ? ` (attempt ${st.attempt})` : ''} by ${st.botName}: ${st.status}${st.durationMs !== null ? ` in ${formatDuration(st.durationMs)}` : ''}${st.detail ? ` — ${st.detail}` : ''}`,
      ),
    ];
    return known('steps', lines.join('\n'), facts.name);
  }

  function oneBuild(facts: ProjectFacts, b: Build): EngineAnswer {
    const lines = [
      `Build ${b.id} of ${facts.name} ${STATUS_WORDS[b.status]}: started ${when(b.createdAt, now())}${b.durationMs !== null ? `, ${formatDuration(b.durationMs)} in all` : ''}${b.cacheHit ? ' (from the cache)' : ''}.`,
    ];
    if (b.steps.length) {
      lines.push(
        `Steps: ${b.steps.map((st) => `${st.name} ${st.status}${st.durationMs !== null ? ` ${formatDuration(st.durationMs)}` : ''}`).join(', ')}.`,
      );
    }
    if (isFailure(b)) lines.push(failureText(b));
    if (b.test) lines.push(testText(b, now(), dirOf(facts)));
    const repairs = repairsText(b);
    if (repairs) lines.push(repairs);
    if (b.previewUrl && b.status === 'succeeded') lines.push(`Preview: ${b.previewUrl}`);
    return known('build', lines.join('\n'), facts.name);
  }

  function builds(facts: ProjectFacts, build: Build | null): EngineAnswer {
    if (build) return oneBuild(facts, build);
    const last = facts.builds[0];
    if (!last) {
      return unknown(
        `I don't know how ${facts.name} builds yet: it has not been built.`,
        BUILD_NEEDED(facts.name),
        facts.name,
      );
    }
    const lines = [
      `The last build of ${facts.name} (${last.id}) ${STATUS_WORDS[last.status]} ${when(endOf(last), now())}${last.durationMs !== null ? ` after ${formatDuration(last.durationMs)}` : ''}.`,
    ];
    if (isFailure(last)) lines.push(failureText(last));
    if (last.test?.ran) lines.push(testText(last, now(), dirOf(facts)));
    const repairs = repairsText(last);
    if (repairs) lines.push(repairs);
    if (facts.builds.length > 1) {
      lines.push(
        `Before it: ${facts.builds
          .slice(1, 6)
          .map((b) => `${b.id} ${b.status}${testsFailed(b) ? ' (tests failed)' : ''}`)
          .join(', ')}.`,
      );
    }
    return known('builds', lines.join('\n'), facts.name);
  }

  function bot(facts: ProjectFacts, name: string, build: Build | null): EngineAnswer {
    const withBot = build ? [build] : facts.builds;
    for (const b of withBot) {
      const own = b.steps.filter((st) => st.botName === name);
      if (own.length === 0) continue;
      return known(
        'bot',
        [
          `${name} in build ${b.id} of ${facts.name} (${when(b.createdAt, now())}):`,
          ...own.map(
            (st) =>
              `- ${st.name}: ${st.status}${st.durationMs !== null ? ` in ${formatDuration(st.durationMs)}` : ''}${st.detail ? ` — ${st.detail}` : ''}`,
          ),
          ...(name === 'LintBot' && b.lint
            ? [
                `Lint ${b.lint.passed === false ? 'found problems' : b.lint.passed ? 'passed' : 'gave no verdict'}${b.lint.problems !== null ? ` (${b.lint.problems} problems)` : ''}.`,
              ]
            : []),
        ].join('\n'),
        facts.name,
      );
    }
    return unknown(
      `I don't know what ${name} did for ${facts.name}: none of its recent builds records a step of ${name}.`,
      facts.builds.length ? `a build of ${facts.name} in which ${name} runs` : BUILD_NEEDED(facts.name),
      facts.name,
    );
  }

  /** Folders of a file list: every parent of every file. */
  const foldersOf = (files: string[]): Set<string> => {
    const set = new Set<string>();
    for (const f of files) {
      const parts = f.split('/');
      for (let i = 1; i < parts.length; i++) set.add(parts.slice(0, i).join('/'));
    }
    return set;
  };

  /** A folder or file of the project the question names, as the tree has it. */
  async function placeIn(
    facts: ProjectFacts,
    s: Subject,
  ): Promise<{ files: string[]; folder: string | null; file: string | null; truncated: boolean }> {
    const found = await fileFacts(services, facts.name);
    const folders = foldersOf(found.files);
    const lowerFiles = new Map(found.files.map((f) => [f.toLowerCase(), f]));
    const lowerFolders = new Map([...folders].map((f) => [f.toLowerCase(), f]));
    const candidates = [...s.paths, ...s.places, ...(s.named ? [s.named] : [])].map((p) =>
      p.replace(/^\.\//, '').replace(/\/+$/, '').toLowerCase(),
    );
    for (const c of candidates) {
      if (lowerFolders.has(c))
        return { files: found.files, folder: lowerFolders.get(c)!, file: null, truncated: found.truncated };
      if (lowerFiles.has(c))
        return { files: found.files, folder: null, file: lowerFiles.get(c)!, truncated: found.truncated };
    }
    return { files: found.files, folder: null, file: null, truncated: found.truncated };
  }

  async function files(facts: ProjectFacts, s: Subject): Promise<EngineAnswer> {
    const placed = await placeIn(facts, s);
    if (placed.folder) {
      const prefix = `${placed.folder}/`;
      const inside = placed.files.filter((f) => f.startsWith(prefix));
      const direct = inside.filter((f) => !f.slice(prefix.length).includes('/'));
      const sub = [
        ...new Set(
          inside
            .map((f) => f.slice(prefix.length))
            .filter((r) => r.includes('/'))
            .map((r) => r.split('/')[0]!),
        ),
      ].sort();
      const lines = [
        `${placed.folder} in ${facts.name} holds ${inside.length} file${inside.length === 1 ? '' : 's'}${sub.length ? ` in ${sub.length + 1} folders` : ''}.`,
      ];
      if (direct.length)
        lines.push(
          `Files in ${placed.folder}: ${direct.slice(0, 25).join(', ')}${direct.length > 25 ? ', …' : ''}.`,
        );
      if (sub.length)
        lines.push(
          `Folders in ${placed.folder}: ${sub
            .slice(0, 25)
            .map((f) => `${prefix}${f}/`)
            .join(', ')}.`,
        );
      return known('files', lines.join('\n'), facts.name);
    }
    if (placed.file) return fileHead(facts, placed.file);
    const unplaced =
      s.paths[0] ??
      s.places.find((p) =>
        new RegExp(
          `\\b(?:in|inside|under|within)\\s+(?:the\\s+)?${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
        ).test(s.rest),
      ) ??
      null;
    if (unplaced) {
      return known('files', `There is no file or folder "${unplaced}" in ${facts.name}.`, facts.name);
    }
    const folders = foldersOf(placed.files);
    const top = placed.files.filter((f) => !f.includes('/'));
    const topFolders = [...folders].filter((f) => !f.includes('/')).sort();
    const text = [
      `${facts.name} has ${placed.truncated ? 'at least ' : ''}${placed.files.length} file${placed.files.length === 1 ? '' : 's'} in ${folders.size} folder${folders.size === 1 ? '' : 's'} (node_modules, .git and the build output not counted).`,
      ...(top.length ? [`At the top: ${top.slice(0, 15).join(', ')}${top.length > 15 ? ', …' : ''}.`] : []),
      ...(topFolders.length
        ? [
            `Top folders: ${topFolders
              .slice(0, 15)
              .map((f) => `${f}/`)
              .join(', ')}.`,
          ]
        : []),
    ].join('\n');
    return known('files', text, facts.name);
  }

  async function fileHead(facts: ProjectFacts, file: string): Promise<EngineAnswer> {
    try {
      const full = path.join(services.layout.projectDir(facts.name), file);
      const stat = await fs.stat(full);
      const text = stat.size <= 256 * 1024 ? await fs.readFile(full, 'utf8') : null;
      if (text === null || text.includes('\u0000')) {
        return known(
          'files',
          `${file} in ${facts.name} is ${formatBytes(stat.size)} (not shown: binary or large).`,
          facts.name,
        );
      }
      const lines = text.split(/\r?\n/);
      const shown = lines.slice(0, 15).map((l, i) => `${String(i + 1).padStart(3)}  ${l}`);
      return known(
        'files',
        [
          `${file} in ${facts.name}: ${lines.length} lines, ${formatBytes(stat.size)}.`,
          ...shown,
          ...(lines.length > 15 ? ['  …'] : []),
        ].join('\n'),
        facts.name,
      );
    } catch {
      return known('files', `There is no file ${file} in ${facts.name}.`, facts.name);
    }
  }

  async function find(facts: ProjectFacts, s: Subject): Promise<EngineAnswer> {
    const { files: all } = await fileFacts(services, facts.name);
    const base = (p: string) => p.slice(p.lastIndexOf('/') + 1).toLowerCase();
    const lines: string[] = [];
    for (const raw of s.paths) {
      const name = raw.replace(/\/+$/, '').toLowerCase();
      let matches = all.filter(
        (p) => base(p) === name || p.toLowerCase() === name || p.toLowerCase().endsWith(`/${name}`),
      );
      const exact = matches.length > 0;
      if (!exact) matches = all.filter((p) => base(p).includes(name));
      if (matches.length === 0) {
        const folder = foldersOf(all).has(raw.replace(/\/+$/, '')) ? raw : null;
        lines.push(
          folder
            ? `${raw} is a folder of ${facts.name}.`
            : `There is no file named "${raw}" in ${facts.name}.`,
        );
        continue;
      }
      const listed = matches.slice(0, 10).join(', ');
      const more = matches.length > 10 ? ` and ${matches.length - 10} more` : '';
      if (exact && matches.length === 1) lines.push(`${raw} is at ${matches[0]}.`);
      else
        lines.push(
          exact
            ? `There are ${matches.length} files named ${raw}: ${listed}${more}.`
            : `No file is named exactly "${raw}"; these names contain it: ${listed}${more}.`,
        );
    }
    return known('find-file', lines.join('\n'), facts.name);
  }

  /** "where is the login handled?", "what uses date-fns?": files and lines of the project's code. */
  async function code(facts: ProjectFacts, s: Subject): Promise<EngineAnswer> {
    const m = facts.manifest;
    const deps = m ? [...m.dependencies, ...m.devDependencies, ...m.peerDependencies] : [];
    const dep = deps.find((e) => s.terms.includes(e.name.toLowerCase()));
    const { files: all, truncated } = await fileFacts(services, facts.name);
    const root = services.layout.projectDir(facts.name);
    const terms = s.terms.filter((t) => !dep || t !== dep.name.toLowerCase());
    if (!dep && terms.length === 0) {
      return unknown(
        `I don't know what to look for in ${facts.name}'s code: name a word of it ("where is the login handled?", "what uses date-fns?").`,
        'a word or name to search for',
        facts.name,
      );
    }
    let result = await searchCode(
      root,
      all,
      dep ? [dep.name] : terms,
      dep ? { importsOf: dep.name } : { handled: /\bhandl(?:e|ed|es|ing|er)\b/.test(s.rest) },
    );
    // No file holds every word: the words one at a time, the one found in the fewest files first
    // (the most specific), said so.
    let partial: string | null = null;
    if (!dep && result.matches.length === 0 && terms.length > 1) {
      const each = await Promise.all(
        terms.map(async (t) => ({
          t,
          r: await searchCode(root, all, [t], { handled: /\bhandl(?:e|ed|es|ing|er)\b/.test(s.rest) }),
        })),
      );
      const best = each
        .filter((e) => e.r.matches.length > 0)
        .sort((a, b) => a.r.matches.length - b.r.matches.length)[0];
      if (best) {
        result = best.r;
        partial = best.t;
      }
    }
    // The words as the question wrote them ("formatPrice", not "formatprice").
    const asWritten = (t: string) =>
      new RegExp(t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i').exec(s.question)?.[0] ?? t;
    const what = dep ? dep.name : terms.map((t) => `"${asWritten(t)}"`).join(' and ');
    if (result.matches.length === 0) {
      const lines = [
        `I don't know: no file of ${facts.name} ${dep ? `imports ${dep.name}` : `mentions ${what}`} (I searched ${result.scanned} text files${result.capped || truncated ? ', not all of them' : ''}).`,
      ];
      if (dep && m)
        lines.push(
          `${dep.name} ${dep.value} is declared in ${place(m.file, dep.line)}, but nothing imports it.`,
        );
      return unknown(
        lines.join('\n'),
        'another word for it, or a language model (brain.provider) to read the code',
        facts.name,
      );
    }
    const shown = result.matches.slice(0, 6);
    const lines = [
      ...(partial ? [`No file of ${facts.name} holds ${what} together; "${asWritten(partial)}" alone:`] : []),
      dep
        ? `In ${facts.name}, ${dep.name} (${dep.value}, ${place(m!.file, dep.line)}) is imported by ${result.matches.length} file${result.matches.length === 1 ? '' : 's'}:`
        : `In ${facts.name}, ${partial ? `"${asWritten(partial)}"` : what} ${terms.length > 1 && !partial ? 'appear' : 'appears'} in ${result.matches.length === 1 ? '1 file' : `${result.matches.length} files; the best matches`}:`,
    ];
    for (const match of shown) {
      for (const hit of match.hits) lines.push(`- ${place(hit.file, hit.line)}: ${hit.text.slice(0, 160)}`);
    }
    if (result.matches.length > shown.length) {
      lines.push(`…and ${result.matches.length - shown.length} more files.`);
    }
    return known('code', lines.join('\n'), facts.name);
  }

  return {
    plan,
    scripts,
    dependencies,
    failure,
    tests,
    repairs,
    logs,
    steps,
    builds,
    bot,
    files,
    find,
    code,
  };
}
