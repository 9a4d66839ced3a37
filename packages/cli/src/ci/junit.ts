import { testsVerdict, type Build, type BuildStep, type TestCaseResult } from '@forge/shared';
import { stripEscapes } from '../terminal.ts';

/**
 * The JUnit XML report of `forge ci --junit`, in the shape CI servers read (Jenkins/Surefire,
 * GitLab, GitHub, Azure): `<testsuites>` with
 *
 * - a testsuite named after the project holding the project's OWN test cases, as its runner
 *   reported them (name, classname, time, failure message and details; skipped ones skipped). A
 *   runner Forge could not read gives one case, the test command, with the tail of its output; a
 *   runner that failed with no failing case (a file that would not load, a coverage threshold)
 *   adds an error case with that tail; tests that did not run are one skipped case saying why;
 * - a testsuite "forge" with Forge's own steps, one case per step (classname: its bot). A failed
 *   step is a failure, skipped / cancelled / unfinished ones are skipped; TestBot's step is a
 *   success whenever it ran, since the project's suite holds what its tests said.
 */

interface JunitCase {
  name: string;
  classname: string;
  seconds: number;
  failure?: { message: string; type: string; text: string };
  error?: { message: string; type: string; text: string };
  skipped?: string;
  systemOut?: string;
}

interface JunitSuite {
  name: string;
  timestamp: string;
  seconds: number;
  cases: JunitCase[];
  properties?: Record<string, string>;
}

/** The report of a build that was followed (to its end, or until the wait stopped). */
export function buildJunitReport(build: Build): string {
  const verdict = testsVerdict(build);
  const forge: JunitSuite = {
    name: 'forge',
    timestamp: build.createdAt,
    seconds: seconds(build.durationMs ?? sumDurations(build.steps)),
    cases: build.steps.map(stepCase),
    properties: {
      projectName: build.projectName,
      buildId: build.id,
      status: build.status,
      stage: build.stage,
      ...(verdict ? { tests: verdict.status, testsPolicy: verdict.policy } : {}),
      ...(build.error ? { error: `${build.error.code}: ${build.error.message}` } : {}),
    },
  };
  return render([projectSuite(build), forge]);
}

/** The report of an upload the daemon (or forge's own checks) refused: one failed testcase "upload". */
export function refusalJunitReport(file: string, error: { code: string; message: string }): string {
  return render([
    {
      name: 'forge',
      timestamp: new Date().toISOString(),
      seconds: 0,
      properties: { file, status: 'refused' },
      cases: [
        {
          name: 'upload',
          classname: 'forge',
          seconds: 0,
          failure: { message: error.message, type: error.code, text: `${file}: ${error.message}` },
        },
      ],
    },
  ]);
}

function stepCase(step: BuildStep): JunitCase {
  const base = { name: step.name, classname: step.botName, seconds: seconds(step.durationMs ?? 0) };
  const detail = step.detail ?? '';
  // What the tests said is the project's suite; TestBot running them is Forge's step, done.
  if (step.name === 'test' && (step.status === 'failed' || step.status === 'timed-out')) {
    return { ...base, ...(detail ? { systemOut: detail } : {}) };
  }
  switch (step.status) {
    case 'failed':
    case 'timed-out':
      return {
        ...base,
        failure: { message: detail || `${step.name} ${step.status}`, type: step.status, text: detail },
      };
    case 'skipped':
      return { ...base, skipped: detail || 'skipped' };
    case 'cancelled':
      return { ...base, skipped: detail || 'cancelled' };
    case 'running':
      return { ...base, skipped: 'still running when forge stopped waiting' };
    default:
      return { ...base, ...(detail ? { systemOut: detail } : {}) };
  }
}

/** The project's own test cases (or what stands for them), as one suite named after the project. */
function projectSuite(build: Build): JunitSuite {
  const test = build.test;
  const verdict = testsVerdict(build);
  const suite = (cases: JunitCase[]): JunitSuite => ({
    name: build.projectName,
    timestamp: build.createdAt,
    seconds: seconds(test?.durationMs ?? 0),
    cases,
    properties: {
      ...(test?.command ? { command: test.command } : {}),
      ...(test?.casesSource ? { cases: test.casesSource } : {}),
      ...(verdict ? { verdict: verdict.summary } : {}),
    },
  });
  const command = test?.command ?? 'tests';
  const at = { name: command, classname: build.projectName, seconds: seconds(test?.durationMs ?? 0) };
  if (!test || !test.ran) {
    const reason =
      verdict && verdict.status !== 'failed' && verdict.status !== 'passed'
        ? verdict.summary
        : test?.reason
          ? `skipped: ${test.reason}`
          : build.blueprint && build.blueprint.test === null
            ? 'no test script'
            : `the tests did not run (build ${build.status})`;
    return suite([{ ...at, name: test?.command ?? 'tests', skipped: reason }]);
  }
  const cases = (test.cases ?? []).map((c) => projectCase(c, build.projectName));
  const tail = test.outputTail;
  if (cases.length === 0) {
    // A runner Forge cannot read: its command is the one case, with the tail of its output.
    if (test.passed === false) {
      const message = test.reason ? `${command}: ${test.reason}` : `${command} failed`;
      return suite([{ ...at, failure: { message, type: 'tests-failed', text: tail } }]);
    }
    if (test.passed === null) {
      return suite([{ ...at, skipped: test.reason ?? `${command} ran without a verdict`, systemOut: tail }]);
    }
    return suite([{ ...at, systemOut: tail }]);
  }
  const failedCases = cases.some((c) => c.failure || c.error);
  if (test.passed !== true && !failedCases) {
    // It failed (or was stopped) with no failing case: that is a failure of its own.
    const message = test.reason ?? `${command} failed, though no test case did`;
    cases.push({ ...at, seconds: 0, error: { message, type: 'tests-failed', text: tail } });
  }
  return suite(cases);
}

function projectCase(c: TestCaseResult, project: string): JunitCase {
  const base = { name: c.name, classname: c.classname || project, seconds: c.time };
  const problem = { message: c.message ?? c.status, type: c.status, text: c.details ?? c.message ?? '' };
  switch (c.status) {
    case 'failed':
      return { ...base, failure: problem };
    case 'error':
      return { ...base, error: problem };
    case 'skipped':
      return { ...base, skipped: c.message ?? 'skipped' };
    default:
      return base;
  }
}

const sumDurations = (steps: readonly BuildStep[]) => steps.reduce((n, s) => n + (s.durationMs ?? 0), 0);
const seconds = (ms: number) => Math.max(0, ms) / 1000;

function counts(cases: readonly JunitCase[], secs: number): string {
  const failures = cases.filter((c) => c.failure).length;
  const errors = cases.filter((c) => c.error).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  return `tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time(secs)}"`;
}

function render(suites: JunitSuite[]): string {
  const all = suites.flatMap((s) => s.cases);
  const total = suites.reduce((n, s) => n + s.seconds, 0);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="forge" ${counts(all, total)}>`];
  suites.forEach((suite, id) => {
    lines.push(
      `  <testsuite name="${attr(suite.name)}" ${counts(suite.cases, suite.seconds)} id="${id}" timestamp="${attr(junitTimestamp(suite.timestamp))}">`,
    );
    const properties = Object.entries(suite.properties ?? {});
    if (properties.length > 0) {
      lines.push('    <properties>');
      for (const [name, value] of properties) {
        lines.push(`      <property name="${attr(name)}" value="${attr(value)}"/>`);
      }
      lines.push('    </properties>');
    }
    for (const c of suite.cases) {
      const open = `    <testcase name="${attr(c.name)}" classname="${attr(c.classname)}" time="${time(c.seconds)}"`;
      const body: string[] = [];
      if (c.skipped !== undefined) body.push(`      <skipped message="${attr(c.skipped)}"/>`);
      for (const [tag, problem] of [
        ['error', c.error],
        ['failure', c.failure],
      ] as const) {
        if (!problem) continue;
        body.push(
          `      <${tag} message="${attr(problem.message)}" type="${attr(problem.type)}">${text(problem.text)}</${tag}>`,
        );
      }
      if (c.systemOut) body.push(`      <system-out>${text(c.systemOut)}</system-out>`);
      if (body.length === 0) lines.push(`${open}/>`);
      else lines.push(`${open}>`, ...body, '    </testcase>');
    }
    lines.push('  </testsuite>');
  });
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

/** JUnit's timestamp is an ISO 8601 date-time without a zone ("2026-01-02T03:04:05"), in UTC here. */
const junitTimestamp = (iso: string): string => iso.replace(/(\.\d+)?Z$/, '');

const time = (s: number) => s.toFixed(3);

// Characters XML 1.0 cannot carry at all (C0 controls but tab, LF, CR; lone surrogates; U+FFFE/F).
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Element text: terminal escape codes and characters XML cannot hold removed, markup escaped. */
const text = (value: string): string =>
  stripEscapes(value).replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An attribute value in double quotes; newlines and tabs kept as character references. */
const attr = (value: string): string =>
  text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
