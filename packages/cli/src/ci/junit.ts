import type { Build, BuildStep } from '@forge/shared';
import { stripEscapes } from '../terminal.ts';

/**
 * The JUnit XML report of `forge ci --junit`: one testsuite "forge" with a testcase per pipeline
 * step (name = step, classname = its bot, time in seconds; failed and timed-out steps are failures
 * with the step's detail, skipped / cancelled / unfinished ones are skipped) and a testcase "tests"
 * from TestBot's report (skipped without a test script; a failure with the output tail when they
 * failed). Readable by the usual CI reporters (GitHub, GitLab, Jenkins, Azure).
 */

interface TestCase {
  name: string;
  classname: string;
  seconds: number;
  failure?: { message: string; type: string; text: string };
  skipped?: string;
  systemOut?: string;
}

/** The report of a build that was followed (to its end, or until the wait stopped). */
export function buildJunitReport(build: Build): string {
  const cases = build.steps.map(stepCase);
  cases.push(testsCase(build));
  return render(cases, {
    timestamp: build.createdAt,
    seconds: seconds(build.durationMs ?? sumDurations(build.steps)),
    properties: {
      projectName: build.projectName,
      buildId: build.id,
      status: build.status,
      stage: build.stage,
      ...(build.error ? { error: `${build.error.code}: ${build.error.message}` } : {}),
    },
  });
}

/** The report of an upload the daemon (or forge's own checks) refused: one failed testcase "upload". */
export function refusalJunitReport(file: string, error: { code: string; message: string }): string {
  return render(
    [
      {
        name: 'upload',
        classname: 'forge',
        seconds: 0,
        failure: { message: error.message, type: error.code, text: `${file}: ${error.message}` },
      },
    ],
    { timestamp: new Date().toISOString(), seconds: 0, properties: { file, status: 'refused' } },
  );
}

function stepCase(step: BuildStep): TestCase {
  const base = { name: step.name, classname: step.botName, seconds: seconds(step.durationMs ?? 0) };
  const detail = step.detail ?? '';
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

function testsCase(build: Build): TestCase {
  const test = build.test;
  const base = { name: 'tests', classname: 'TestBot', seconds: seconds(test?.durationMs ?? 0) };
  if (!test || !test.ran) {
    const reason =
      build.blueprint && build.blueprint.test === null
        ? 'no test script'
        : `the tests did not run (build ${build.status})`;
    return { ...base, skipped: reason };
  }
  const command = test.command ?? 'tests';
  if (test.passed === false) {
    return {
      ...base,
      failure: { message: `${command} failed`, type: 'tests-failed', text: test.outputTail },
    };
  }
  if (test.passed === null)
    return { ...base, skipped: `${command} ran without a verdict`, systemOut: test.outputTail };
  return { ...base, systemOut: test.outputTail };
}

const sumDurations = (steps: readonly BuildStep[]) => steps.reduce((n, s) => n + (s.durationMs ?? 0), 0);
const seconds = (ms: number) => Math.max(0, ms) / 1000;

function render(
  cases: TestCase[],
  suite: { timestamp: string; seconds: number; properties: Record<string, string> },
): string {
  const failures = cases.filter((c) => c.failure).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time(suite.seconds)}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="forge" ${counts}>`,
    `  <testsuite name="forge" ${counts} timestamp="${attr(suite.timestamp)}">`,
    '    <properties>',
    ...Object.entries(suite.properties).map(
      ([name, value]) => `      <property name="${attr(name)}" value="${attr(value)}"/>`,
    ),
    '    </properties>',
  ];
  for (const c of cases) {
    const open = `    <testcase name="${attr(c.name)}" classname="${attr(c.classname)}" time="${time(c.seconds)}"`;
    const body: string[] = [];
    if (c.failure) {
      body.push(
        `      <failure message="${attr(c.failure.message)}" type="${attr(c.failure.type)}">${text(c.failure.text)}</failure>`,
      );
    }
    if (c.skipped !== undefined) body.push(`      <skipped message="${attr(c.skipped)}"/>`);
    if (c.systemOut) body.push(`      <system-out>${text(c.systemOut)}</system-out>`);
    if (body.length === 0) lines.push(`${open}/>`);
    else lines.push(`${open}>`, ...body, '    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

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
