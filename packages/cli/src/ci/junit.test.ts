import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuildStep, TestsVerdict } from '@forge/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { at, makeBlueprint, makeBuild, makeStep } from '@forge/testing';
import { validateJunit } from '../../test/junit-schema.ts';
import { parseXml, type XmlElement } from '../../test/xml.ts';
import { buildJunitReport, refusalJunitReport } from './junit.ts';

const step = (
  name: BuildStep['name'],
  botName: string,
  status: BuildStep['status'],
  durationMs: number | null,
  detail: string | null = null,
): BuildStep => makeStep({ name, botName, status, startedAt: at(0), durationMs, detail });

const dir = mkdtempSync(join(tmpdir(), 'forge-junit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** The report's suites by name, after xmllint checked it against the JUnit schema. */
function suitesOf(xml: string): Map<string, XmlElement> {
  const file = join(dir, `report-${n++}.xml`);
  writeFileSync(file, xml);
  validateJunit(file);
  const root = parseXml(xml);
  expect(root.name).toBe('testsuites');
  return new Map(root.children.map((s) => [s.attributes.name!, s]));
}
const cases = (suite: XmlElement) => suite.children.filter((c) => c.name === 'testcase');
const child = (el: XmlElement, name: string) => el.children.find((c) => c.name === name);

const verdict = (over: Partial<TestsVerdict>): TestsVerdict => ({
  status: 'failed',
  command: 'npm test',
  policy: 'required',
  policySource: 'default',
  counts: null,
  summary: 'failed',
  ...over,
});

describe('buildJunitReport', () => {
  it("holds the project's own cases in a suite named after it, and Forge's steps in a suite of their own", () => {
    const build = makeBuild({
      projectName: 'shop',
      status: 'succeeded',
      durationMs: 2_500,
      steps: [
        step('extract', 'ExtractBot', 'succeeded', 120, '2 files'),
        step('install', 'DependencyBot', 'cached', 30),
        step('build', 'BuildBot', 'succeeded', 2_000),
        step('test', 'TestBot', 'failed', 300, 'tests failed: 1 failed, 1 passed, 1 skipped'),
      ],
      test: {
        ran: true,
        passed: false,
        command: 'npm test',
        durationMs: 280,
        outputTail: 'FAIL',
        cases: [
          { name: 'cart > adds', classname: 'src/cart.test.ts', time: 0.012, status: 'passed' },
          {
            name: 'cart > removes',
            classname: 'src/cart.test.ts',
            time: 0.004,
            status: 'failed',
            message: 'expected 1 to be 2',
            details: 'AssertionError: expected 1 to be 2\n at src/cart.test.ts:9:5',
          },
          { name: 'cart > later', classname: 'src/cart.test.ts', time: 0, status: 'skipped' },
        ],
        counts: { passed: 1, failed: 1, skipped: 1, total: 3 },
        casesSource: "Vitest's JUnit report",
      },
      verdict: verdict({ counts: { passed: 1, failed: 1, skipped: 1, total: 3 } }),
    });
    const xml = buildJunitReport(build);
    const suites = suitesOf(xml);
    expect([...suites.keys()]).toEqual(['shop', 'forge']);

    const project = suites.get('shop')!;
    expect(project.attributes).toMatchObject({ tests: '3', failures: '1', errors: '0', skipped: '1' });
    expect(cases(project).map((c) => [c.attributes.name, c.attributes.classname, c.attributes.time])).toEqual(
      [
        ['cart > adds', 'src/cart.test.ts', '0.012'],
        ['cart > removes', 'src/cart.test.ts', '0.004'],
        ['cart > later', 'src/cart.test.ts', '0.000'],
      ],
    );
    const failure = child(cases(project)[1]!, 'failure')!;
    expect(failure.attributes).toEqual({ message: 'expected 1 to be 2', type: 'failed' });
    expect(failure.text).toContain('src/cart.test.ts:9:5');

    const forge = suites.get('forge')!;
    expect(cases(forge).map((c) => [c.attributes.name, c.attributes.classname])).toEqual([
      ['extract', 'ExtractBot'],
      ['install', 'DependencyBot'],
      ['build', 'BuildBot'],
      ['test', 'TestBot'],
    ]);
    // TestBot ran the tests: its step is done; what they said is the project's suite.
    expect(forge.attributes).toMatchObject({ tests: '4', failures: '0', time: '2.500' });
    const props = child(forge, 'properties')!.children.map((p) => [p.attributes.name, p.attributes.value]);
    expect(props).toContainEqual(['tests', 'failed']);
    // The whole report counts both suites.
    expect(parseXml(xml).attributes).toMatchObject({ tests: '7', failures: '1', skipped: '1' });
  });

  it('gives a runner Forge could not read one case with the tail of its output (escaped, no escape codes)', () => {
    const build = makeBuild({
      status: 'succeeded',
      steps: [step('test', 'TestBot', 'failed', 10, 'tests failed (exit 1)')],
      test: {
        ran: true,
        passed: false,
        command: 'npm test',
        durationMs: 10,
        outputTail: '\u001b[31mnot ok 1 - <b> & "c"\u001b[0m\u0007\nend',
      },
    });
    const xml = buildJunitReport(build);
    const [only, ...rest] = cases(suitesOf(xml).get('site')!);
    expect(rest).toEqual([]);
    expect(only!.attributes).toMatchObject({ name: 'npm test', classname: 'site' });
    const failure = child(only!, 'failure')!;
    expect(failure.attributes.message).toBe('npm test failed');
    expect(failure.text).toBe('not ok 1 - <b> & "c"\nend');
    expect(xml).toContain('&lt;b&gt; &amp; "c"');
  });

  it('adds an error case when the runner failed though no case did (a file that would not load)', () => {
    const build = makeBuild({
      status: 'succeeded',
      test: {
        ran: true,
        passed: false,
        command: 'npx vitest run',
        durationMs: 10,
        outputTail: 'Error: Cannot find module ./missing',
        cases: [{ name: 'ok', classname: 'a.test.js', time: 0.001, status: 'passed' }],
        counts: { passed: 1, failed: 0, skipped: 0, total: 1 },
      },
    });
    const project = suitesOf(buildJunitReport(build)).get('site')!;
    expect(project.attributes).toMatchObject({ tests: '2', failures: '0', errors: '1' });
    expect(child(cases(project)[1]!, 'error')?.text).toContain('Cannot find module');
  });

  it('says why tests did not run: --tests skip, no test script, a failed build', () => {
    const skipped = makeBuild({
      status: 'succeeded',
      blueprint: { ...blueprint, test: ['npm', 'test'] },
      verdict: verdict({
        status: 'skipped',
        policy: 'skip',
        policySource: 'option',
        summary: 'skipped (--tests skip)',
      }),
    });
    const skip = child(cases(suitesOf(buildJunitReport(skipped)).get('site')!)[0]!, 'skipped');
    expect(skip?.attributes.message).toBe('skipped (--tests skip)');

    const noScript = makeBuild({ status: 'failed', blueprint: { ...blueprint, test: null } });
    expect(
      child(cases(suitesOf(buildJunitReport(noScript)).get('site')!)[0]!, 'skipped')?.attributes.message,
    ).toBe('no test script');
    const failed = makeBuild({
      status: 'timed-out',
      error: { code: 'STAGE_TIMEOUT', message: 'build timed out' },
      blueprint: { ...blueprint, test: ['npm', 'test'] },
      steps: [step('build', 'BuildBot', 'timed-out', 1_000, 'build timed out: npm run build')],
    });
    const suites = suitesOf(buildJunitReport(failed));
    expect(child(cases(suites.get('site')!)[0]!, 'skipped')?.attributes.message).toBe(
      'the tests did not run (build timed-out)',
    );
    const forge = suites.get('forge')!;
    expect(child(cases(forge)[0]!, 'failure')?.attributes).toEqual({
      message: 'build timed out: npm run build',
      type: 'timed-out',
    });
    const props = child(forge, 'properties')!.children.map((p) => [p.attributes.name, p.attributes.value]);
    expect(props).toContainEqual(['error', 'STAGE_TIMEOUT: build timed out']);
  });

  it('escapes quotes and newlines in attributes', () => {
    const build = makeBuild({
      projectName: 'a"b<c>&d',
      steps: [step('build', 'BuildBot', 'failed', 5, 'line 1\nline "2"')],
    });
    const forge = suitesOf(buildJunitReport(build)).get('forge')!;
    expect(cases(forge)[0]!.children[0]!.attributes.message).toBe('line 1\nline "2"');
    expect(child(forge, 'properties')!.children[0]!.attributes.value).toBe('a"b<c>&d');
  });
  it('keeps newlines and tabs of an attribute when a conforming XML parser reads it (xmllint)', () => {
    // A raw newline in an attribute reaches a CI server as a space (attribute-value normalization):
    // the writer must send it as a character reference.
    const build = makeBuild({ steps: [step('build', 'BuildBot', 'failed', 5, 'line 1\n\tline 2')] });
    const file = join(dir, `report-${n++}.xml`);
    writeFileSync(file, buildJunitReport(build));
    const read = spawnSync(
      'xmllint',
      ['--xpath', 'string(//testsuite[@name="forge"]/testcase[1]/failure/@message)', file],
      { encoding: 'utf8' },
    );
    expect(read.status).toBe(0);
    // xmllint ends what it prints with a newline of its own.
    expect(read.stdout.replace(/\n$/, '')).toBe('line 1\n\tline 2');
  });
});

describe('refusalJunitReport', () => {
  it('is one failed testcase "upload" with the code', () => {
    const suite = suitesOf(
      refusalJunitReport('evil.zip', { code: 'ARCHIVE_PATH_TRAVERSAL', message: 'climbs out' }),
    ).get('forge')!;
    expect(cases(suite)).toHaveLength(1);
    expect(child(cases(suite)[0]!, 'failure')?.attributes).toEqual({
      message: 'climbs out',
      type: 'ARCHIVE_PATH_TRAVERSAL',
    });
  });
});

const blueprint = makeBlueprint({ framework: 'custom', install: null });
