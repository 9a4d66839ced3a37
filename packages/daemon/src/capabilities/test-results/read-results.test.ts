import { MAX_TEST_CASES, type TestCaseResult } from '@forge/shared';
import { describe, expect, it } from 'vitest';
import { readJestJson, readJunit, readTestResults, summarise } from './read-results.ts';
import { parseXml } from './xml.ts';

/** As Vitest 3/4 writes it (`--reporter=junit`). */
const VITEST = `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites name="vitest tests" tests="3" failures="1" errors="0" time="0.010408656">
    <testsuite name="a.test.js" timestamp="2026-11-28T23:34:51.825Z" hostname="vm" tests="3" failures="1" errors="0" skipped="1" time="0.010408656">
        <testcase classname="a.test.js" name="math &gt; adds &lt;&amp;&gt;" time="0.003145349">
        </testcase>
        <testcase classname="a.test.js" name="math &gt; fails" time="0.005629371">
            <failure message="expected 4 to be 5 // Object.is equality" type="AssertionError">
AssertionError: expected 4 to be 5 // Object.is equality
 ❯ a.test.js:2:103
            </failure>
        </testcase>
        <testcase classname="a.test.js" name="math &gt; later" time="0">
            <skipped/>
        </testcase>
    </testsuite>
</testsuites>`;

/** As Node 20's `--test-reporter=junit` writes it: top-level tests, describe blocks as nested suites, comments. */
const NODE = `<?xml version="1.0" encoding="utf-8"?>
<testsuites>
	<testcase name="adds" time="0.001063" classname="test"/>
	<testsuite name="suite" time="0.001282" disabled="0" errors="0" tests="2" failures="1" skipped="1" hostname="vm">
		<testcase name="fails" time="0.000944" classname="test" failure="1 == 2">
			<failure type="testCodeFailure" message="1 == 2">
Error [ERR_TEST_FAILURE]: 1 == 2
    at new Promise (&lt;anonymous>)
			</failure>
		</testcase>
		<testcase name="todo" time="0.0001" classname="test">
			<skipped type="todo" message="later"/>
		</testcase>
	</testsuite>
	<!-- tests 3 -->
	<!-- pass 1 -->
</testsuites>`;

/** As Mocha's xunit reporter writes it (one testsuite root, CDATA-free, an error case). */
const MOCHA = `<testsuite name="Mocha Tests" tests="3" failures="1" errors="1" skipped="0" timestamp="Sat, 28 Nov 2026 23:34:11 GMT" time="0.004">
<testcase classname="cart" name="adds" time="0"/>
<testcase classname="cart" name="fails" time="0.001"><failure message="1 == 2"><![CDATA[AssertionError [ERR_ASSERTION]: 1 == 2
    at Context.<anonymous> (test/a.spec.js:2:80)]]></failure></testcase>
<testcase classname="cart" name="throws" time="0"><error message="boom" type="Error">Error: boom</error></testcase>
</testsuite>`;

const status = (cases: TestCaseResult[]) => cases.map((c) => [c.classname, c.name, c.status]);

describe('readJunit', () => {
  it("reads Vitest's report: file as classname, describe > name, failure message and details, skipped", () => {
    const cases = readJunit(VITEST);
    expect(status(cases)).toEqual([
      ['a.test.js', 'math > adds <&>', 'passed'],
      ['a.test.js', 'math > fails', 'failed'],
      ['a.test.js', 'math > later', 'skipped'],
    ]);
    expect(cases[1]).toMatchObject({
      time: 0.005629371,
      message: 'expected 4 to be 5 // Object.is equality',
      details: expect.stringContaining('❯ a.test.js:2:103'),
    });
  });

  it('reads Node\'s report, naming each case by its describe blocks (Node writes "test" as classname)', () => {
    const cases = readJunit(NODE, { suitesAsClassname: true });
    expect(status(cases)).toEqual([
      ['', 'adds', 'passed'],
      ['suite', 'fails', 'failed'],
      ['suite', 'todo', 'skipped'],
    ]);
    expect(cases[1]!.message).toBe('1 == 2');
    expect(cases[1]!.details).toContain('at new Promise (<anonymous>)');
    expect(cases[2]!.message).toBe('later');
  });

  it("reads Mocha's xunit report: CDATA details, errors apart from failures", () => {
    const cases = readJunit(MOCHA);
    expect(status(cases)).toEqual([
      ['cart', 'adds', 'passed'],
      ['cart', 'fails', 'failed'],
      ['cart', 'throws', 'error'],
    ]);
    expect(cases[1]!.details).toContain('at Context.<anonymous> (test/a.spec.js:2:80)');
  });

  it('refuses what is not a JUnit report, and malformed XML', () => {
    expect(() => readJunit('<html><body/></html>')).toThrow(/starts with <testsuites> or <testsuite>/);
    expect(() => readJunit('<testsuites><testcase name="a"></testsuites>')).toThrow(/closed by another tag/);
    expect(() => readJunit('<testsuites/><extra/>')).toThrow(/content after the root element/);
    expect(() => parseXml('<a b="1"')).toThrow();
  });

  it('cuts long failure messages and details', () => {
    const long = 'x'.repeat(10_000);
    const [c] = readJunit(
      `<testsuite><testcase name="t"><failure message="${long}">${long}</failure></testcase></testsuite>`,
    );
    expect(c!.message!.length).toBe(500);
    expect(c!.details!.length).toBe(4_000);
  });
});

describe('readJestJson', () => {
  const results = {
    numTotalTests: 4,
    testResults: [
      {
        name: '/p/app/__tests__/a.test.js',
        status: 'failed',
        message: '',
        assertionResults: [
          { ancestorTitles: ['cart'], title: 'adds', status: 'passed', duration: 2, failureMessages: [] },
          {
            ancestorTitles: ['cart'],
            title: 'fails',
            status: 'failed',
            duration: 4,
            failureMessages: ['\u001b[31mexpect(received).toBe(expected)\u001b[39m\n\nExpected: 2'],
          },
          { ancestorTitles: ['cart'], title: 'later', status: 'todo', duration: null, failureMessages: [] },
        ],
      },
      {
        name: '/p/app/__tests__/broken.test.js',
        status: 'failed',
        message: "  ● Test suite failed to run\n\n    Cannot find module './missing'",
        assertionResults: [],
      },
    ],
  };

  it('gives a case per assertion (file relative to the app, titles joined) and one for a file that failed to run', () => {
    const cases = readJestJson(JSON.stringify(results), '/p/app');
    expect(status(cases)).toEqual([
      ['__tests__/a.test.js', 'cart > adds', 'passed'],
      ['__tests__/a.test.js', 'cart > fails', 'failed'],
      ['__tests__/a.test.js', 'cart > later', 'skipped'],
      ['__tests__/broken.test.js', '(the test file failed to run)', 'error'],
    ]);
    expect(cases[1]).toMatchObject({ time: 0.004, message: 'expect(received).toBe(expected)' });
    expect(cases[3]!.details).toContain("Cannot find module './missing'");
  });

  it('refuses JSON that is not Jest results', () => {
    expect(() => readJestJson('{"x":1}', '/p')).toThrow(/no testResults/);
    expect(() => readJestJson('not json', '/p')).toThrow();
  });
});

describe('summarise', () => {
  it('counts every case and keeps the failures first when the list is cut', () => {
    const many: TestCaseResult[] = Array.from({ length: MAX_TEST_CASES + 10 }, (_, i) => ({
      name: `t${i}`,
      classname: 'c',
      time: 0,
      status: i === MAX_TEST_CASES + 5 ? 'failed' : i % 2 ? 'skipped' : 'passed',
    }));
    const { cases, counts } = summarise(many);
    expect(counts).toEqual({ passed: 1005, failed: 1, skipped: 1004, total: MAX_TEST_CASES + 10 });
    expect(cases).toHaveLength(MAX_TEST_CASES);
    expect(cases[0]!.name).toBe(`t${MAX_TEST_CASES + 5}`);
  });

  it('reads by the plan: JUnit for node with suites as classnames, Jest JSON for jest', () => {
    const node = readTestResults({ runner: 'node', format: 'junit', args: [], env: {} }, NODE, '/p');
    expect(node.counts).toEqual({ passed: 1, failed: 1, skipped: 1, total: 3 });
    expect(node.cases[1]!.classname).toBe('suite');
    const jest = readTestResults(
      { runner: 'jest', format: 'jest-json', args: [], env: {} },
      JSON.stringify({ testResults: [] }),
      '/p',
    );
    expect(jest.counts.total).toBe(0);
  });
});
