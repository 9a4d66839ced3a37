import type { BuildStep } from '@forge/shared';
import { describe, expect, it } from 'vitest';
import { at, makeBlueprint, makeBuild, makeStep } from '@forge/testing';
import { parseXml, type XmlElement } from '../../test/xml.ts';
import { buildJunitReport, refusalJunitReport } from './junit.ts';

const step = (
  name: BuildStep['name'],
  botName: string,
  status: BuildStep['status'],
  durationMs: number | null,
  detail: string | null = null,
): BuildStep => makeStep({ name, botName, status, startedAt: at(0), durationMs, detail });

const suiteOf = (xml: string): XmlElement => {
  const root = parseXml(xml);
  expect(root.name).toBe('testsuites');
  expect(root.children).toHaveLength(1);
  const suite = root.children[0]!;
  expect(suite.name).toBe('testsuite');
  expect(suite.attributes.name).toBe('forge');
  return suite;
};
const cases = (suite: XmlElement) => suite.children.filter((c) => c.name === 'testcase');
const child = (el: XmlElement, name: string) => el.children.find((c) => c.name === name);

describe('buildJunitReport', () => {
  it('has a testcase per step (bot as classname, seconds) and one for the tests', () => {
    const build = makeBuild({
      status: 'succeeded',
      durationMs: 2_500,
      steps: [
        step('extract', 'ExtractBot', 'succeeded', 120, '2 files'),
        step('install', 'DependencyBot', 'cached', 30),
        step('build', 'BuildBot', 'succeeded', 2_000),
        step('test', 'TestBot', 'succeeded', 300),
      ],
      test: { ran: true, passed: true, command: 'npm test', durationMs: 280, outputTail: 'ok 1' },
    });
    const suite = suiteOf(buildJunitReport(build));
    expect(cases(suite).map((c) => [c.attributes.name, c.attributes.classname, c.attributes.time])).toEqual([
      ['extract', 'ExtractBot', '0.120'],
      ['install', 'DependencyBot', '0.030'],
      ['build', 'BuildBot', '2.000'],
      ['test', 'TestBot', '0.300'],
      ['tests', 'TestBot', '0.280'],
    ]);
    expect(suite.attributes).toMatchObject({ tests: '5', failures: '0', skipped: '0', time: '2.500' });
    expect(cases(suite).every((c) => !child(c, 'failure') && !child(c, 'skipped'))).toBe(true);
    expect(child(cases(suite)[4]!, 'system-out')?.text).toBe('ok 1');
  });

  it('makes failed and timed-out steps failures with their detail, and failed tests a failure with the output', () => {
    const build = makeBuild({
      status: 'timed-out',
      error: { code: 'STAGE_TIMEOUT', message: 'build timed out' },
      steps: [
        step('build', 'BuildBot', 'timed-out', 1_000, 'build timed out: npm run build'),
        step('test', 'TestBot', 'failed', 10, 'tests failed (exit 1)'),
        step('check', 'UiBot', 'skipped', null),
      ],
      test: {
        ran: true,
        passed: false,
        command: 'npm test',
        durationMs: 10,
        outputTail: '\u001b[31mnot ok 1 - <b> & "c"\u001b[0m\u0007\nend',
      },
    });
    const xml = buildJunitReport(build);
    const suite = suiteOf(xml);
    expect(suite.attributes).toMatchObject({ tests: '4', failures: '3', skipped: '1' });
    const [buildCase, testStep, check, tests] = cases(suite);
    expect(child(buildCase!, 'failure')?.attributes).toEqual({
      message: 'build timed out: npm run build',
      type: 'timed-out',
    });
    expect(child(testStep!, 'failure')?.attributes.type).toBe('failed');
    expect(child(check!, 'skipped')).toBeDefined();
    const failure = child(tests!, 'failure')!;
    expect(failure.attributes.message).toBe('npm test failed');
    // Escape codes and characters XML cannot hold are gone; markup is escaped, not lost.
    expect(failure.text).toBe('not ok 1 - <b> & "c"\nend');
    expect(xml).toContain('&lt;b&gt; &amp; "c"');
    const props = child(suite, 'properties')!.children.map((p) => [p.attributes.name, p.attributes.value]);
    expect(props).toContainEqual(['error', 'STAGE_TIMEOUT: build timed out']);
  });

  it('skips the tests testcase when there is no test script, or the build stopped before them', () => {
    const noScript = makeBuild({ status: 'succeeded', blueprint: { ...blueprint, test: null } });
    expect(child(cases(suiteOf(buildJunitReport(noScript))).at(-1)!, 'skipped')?.attributes.message).toBe(
      'no test script',
    );
    const failed = makeBuild({ status: 'failed', blueprint: { ...blueprint, test: ['npm', 'test'] } });
    expect(child(cases(suiteOf(buildJunitReport(failed))).at(-1)!, 'skipped')?.attributes.message).toBe(
      'the tests did not run (build failed)',
    );
  });

  it('escapes quotes and newlines in attributes', () => {
    const build = makeBuild({
      projectName: 'a"b<c>&d',
      steps: [step('build', 'BuildBot', 'failed', 5, 'line 1\nline "2"')],
    });
    const suite = suiteOf(buildJunitReport(build));
    expect(cases(suite)[0]!.children[0]!.attributes.message).toBe('line 1\nline "2"');
    expect(child(suite, 'properties')!.children[0]!.attributes.value).toBe('a"b<c>&d');
  });
});

describe('refusalJunitReport', () => {
  it('is one failed testcase "upload" with the code', () => {
    const suite = suiteOf(
      refusalJunitReport('evil.zip', { code: 'ARCHIVE_PATH_TRAVERSAL', message: 'climbs out' }),
    );
    expect(cases(suite)).toHaveLength(1);
    expect(child(cases(suite)[0]!, 'failure')?.attributes).toEqual({
      message: 'climbs out',
      type: 'ARCHIVE_PATH_TRAVERSAL',
    });
  });
});

const blueprint = makeBlueprint({ framework: 'custom', install: null });
