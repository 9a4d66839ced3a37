import path from 'node:path';
import { MAX_TEST_CASES, type TestCaseResult, type TestCounts, type TestResultsPlan } from '@forge/shared';
import { parseXml, type XmlNode } from './xml.ts';

/** A failure's message (one line, for lists) and its details (assertion, stack) are cut to these. */
const MAX_MESSAGE = 500;
const MAX_DETAILS = 4_000;

/** The cases of a report, with the counts of all of them (the list is cut at MAX_TEST_CASES). */
export interface TestResults {
  cases: TestCaseResult[];
  counts: TestCounts;
}

const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const firstLine = (text: string): string => text.trim().split('\n')[0]?.trim() ?? '';

function caseOf(
  name: string,
  classname: string,
  seconds: number,
  status: TestCaseResult['status'],
  message?: string,
  details?: string,
): TestCaseResult {
  const msg = message?.trim() ? cut(message.trim(), MAX_MESSAGE) : undefined;
  const more = details?.trim() ? cut(details.trim(), MAX_DETAILS) : undefined;
  return {
    name: name || '(unnamed test)',
    classname,
    time: Number.isFinite(seconds) && seconds > 0 ? seconds : 0,
    status,
    ...(msg ? { message: msg } : {}),
    ...(more ? { details: more } : {}),
  };
}

/** Counts of every case, and the list cut to MAX_TEST_CASES with failures kept first. */
export function summarise(all: readonly TestCaseResult[]): TestResults {
  const counts: TestCounts = { passed: 0, failed: 0, skipped: 0, total: all.length };
  for (const c of all) {
    if (c.status === 'passed') counts.passed++;
    else if (c.status === 'skipped') counts.skipped++;
    else counts.failed++;
  }
  if (all.length <= MAX_TEST_CASES) return { cases: [...all], counts };
  const bad = all.filter((c) => c.status === 'failed' || c.status === 'error');
  const rest = all.filter((c) => c.status !== 'failed' && c.status !== 'error');
  return { cases: [...bad, ...rest].slice(0, MAX_TEST_CASES), counts };
}

/**
 * The cases of a JUnit (or xunit) report. Vitest and Mocha name each case's file or suite in
 * `classname`; Node's runner writes "test" there and nests describe blocks as testsuites, so for it
 * the suites' names make the classname.
 */
export function readJunit(xml: string, opts: { suitesAsClassname?: boolean } = {}): TestCaseResult[] {
  const root = parseXml(xml);
  if (root.name !== 'testsuites' && root.name !== 'testsuite') {
    throw new Error(`a JUnit report starts with <testsuites> or <testsuite>, not <${root.name}>`);
  }
  const cases: TestCaseResult[] = [];
  const walk = (node: XmlNode, suites: string[]): void => {
    for (const child of node.children) {
      if (child.name === 'testsuites') {
        walk(child, suites);
      } else if (child.name === 'testsuite') {
        walk(child, child.attributes.name ? [...suites, child.attributes.name] : suites);
      } else if (child.name === 'testcase') {
        cases.push(junitCase(child, suites, opts.suitesAsClassname === true));
      }
    }
  };
  walk({ name: '', attributes: {}, children: [root], text: '' }, []);
  return cases;
}

function junitCase(node: XmlNode, suites: string[], suitesAsClassname: boolean): TestCaseResult {
  const a = node.attributes;
  const classname = suitesAsClassname
    ? suites.join(' > ') || a.file || ''
    : (a.classname ?? a.file ?? suites.at(-1) ?? '');
  const seconds = Number(a.time ?? 0);
  const failure = node.children.find((c) => c.name === 'failure');
  const error = node.children.find((c) => c.name === 'error');
  const skipped = node.children.find((c) => c.name === 'skipped');
  const bad = failure ?? error;
  if (bad) {
    const details = bad.text.trim();
    const message = bad.attributes.message ?? (firstLine(details) || bad.attributes.type);
    return caseOf(a.name ?? '', classname, seconds, failure ? 'failed' : 'error', message, details);
  }
  if (skipped) return caseOf(a.name ?? '', classname, seconds, 'skipped', skipped.attributes.message);
  return caseOf(a.name ?? '', classname, seconds, 'passed');
}

interface JestAssertion {
  ancestorTitles?: unknown;
  title?: unknown;
  status?: unknown;
  duration?: unknown;
  failureMessages?: unknown;
}
interface JestFile {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  assertionResults?: unknown;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The cases of Jest's `--json` results: one per assertion (classname: the test file, relative to
 * `cwd`; name: its describe titles and its own), and one error case for a file that failed to run
 * (a syntax error, a missing module) and so reported no assertion.
 */
export function readJestJson(text: string, cwd: string): TestCaseResult[] {
  const data = JSON.parse(text) as { testResults?: unknown };
  if (!Array.isArray(data.testResults)) throw new Error('Jest results hold no testResults list');
  const cases: TestCaseResult[] = [];
  for (const file of data.testResults as JestFile[]) {
    const abs = str(file.name);
    const rel = abs && path.isAbsolute(abs) ? path.relative(cwd, abs) : abs;
    const classname = rel.startsWith('..') ? abs : rel;
    const assertions = Array.isArray(file.assertionResults) ? (file.assertionResults as JestAssertion[]) : [];
    if (assertions.length === 0 && file.status === 'failed') {
      const message = str(file.message).replace(ANSI, '');
      cases.push(caseOf('(the test file failed to run)', classname, 0, 'error', firstLine(message), message));
      continue;
    }
    for (const t of assertions) {
      const titles = Array.isArray(t.ancestorTitles) ? t.ancestorTitles.map(str).filter(Boolean) : [];
      const name = [...titles, str(t.title)].join(' > ');
      const seconds = typeof t.duration === 'number' ? t.duration / 1000 : 0;
      const failures = Array.isArray(t.failureMessages) ? t.failureMessages.map(str).join('\n') : '';
      const details = failures.replace(ANSI, '');
      switch (t.status) {
        case 'passed':
          cases.push(caseOf(name, classname, seconds, 'passed'));
          break;
        case 'failed':
          cases.push(caseOf(name, classname, seconds, 'failed', firstLine(details), details));
          break;
        default:
          // pending, skipped, todo, disabled, focused-out
          cases.push(caseOf(name, classname, seconds, 'skipped', str(t.status)));
      }
    }
  }
  return cases;
}

/** Read a report written by the runner of `plan`; `cwd` is where the tests ran. */
export function readTestResults(plan: TestResultsPlan, text: string, cwd: string): TestResults {
  const all =
    plan.format === 'jest-json'
      ? readJestJson(text, cwd)
      : readJunit(text, { suitesAsClassname: plan.runner === 'node' });
  return summarise(all);
}

/** What the report is called in messages ("Vitest's JUnit report"). */
export function reportName(plan: TestResultsPlan): string {
  const runner = { vitest: 'Vitest', jest: 'Jest', node: 'node --test', mocha: 'Mocha' }[plan.runner];
  return plan.format === 'jest-json' ? `${runner}'s JSON results` : `${runner}'s JUnit report`;
}
