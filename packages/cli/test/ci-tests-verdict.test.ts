import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliResult, type CliBuildResult } from '@forge/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeZip, type ProjectFiles } from '@forge/testing';
import { exitOf, Sandbox } from './helpers.ts';
import { validateJunit } from './junit-schema.ts';
import { parseXml, type XmlElement } from './xml.ts';

// The tests decide the verdict of forge ci (and --wait): a project whose own tests fail exits 7
// unless the user says otherwise, and the JUnit report holds the project's own test cases, checked
// against the JUnit schema CI servers read. Each run uses forge ci's private daemon.

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await Sandbox.create();
});
afterEach(async () => {
  await sandbox.dispose();
});

const BUILD_JS =
  "const fs = require('fs'); fs.mkdirSync('dist', { recursive: true }); fs.writeFileSync('dist/index.html', '<h1>built</h1>');\n";

const project = (name: string, scripts: Record<string, string>, extra: ProjectFiles = {}, pkg: object = {}) =>
  writeZip(sandbox.cwd, `${name}.zip`, {
    'package.json': JSON.stringify({
      name,
      private: true,
      scripts: { build: 'node build.cjs', ...scripts },
      ...pkg,
    }),
    'build.cjs': BUILD_JS,
    ...extra,
  });

/** The reported case: `node test.js` prints "1 test failed" and exits 1. */
const failingNodeScript = () =>
  project('p', { test: 'node test.js' }, { 'test.js': "console.log('1 test failed'); process.exit(1);\n" });

/** Node's own test runner: two tests pass, one (in a describe block) fails. */
const NODE_TESTS = `const test = require('node:test');
const assert = require('node:assert');
test('adds', () => assert.equal(1 + 1, 2));
test('subtracts', () => assert.equal(2 - 1, 1));
test.describe('cart', () => {
  test.it('totals', () => assert.equal(2 * 2, 5, 'the total is off'));
});
`;

/** forge ci to its end (an install from the registry can take longer than Sandbox.run waits). */
async function ci(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = sandbox.spawn(['ci', ...args]);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const code = await exitOf(child);
  return { code, stdout, stderr };
}

function buildResult(stdout: string): CliBuildResult {
  const result = CliResult.parse(JSON.parse(stdout));
  if (result.status === 'refused' || result.status === 'error') throw new Error(`no build: ${stdout}`);
  return result;
}

/** The report's suites by name, once xmllint has checked it against the JUnit schema. */
function junit(file: string): Map<string, XmlElement> {
  const path = join(sandbox.cwd, file);
  validateJunit(path);
  const root = parseXml(readFileSync(path, 'utf8'));
  return new Map(root.children.map((suite) => [suite.attributes.name!, suite]));
}
const cases = (suite: XmlElement | undefined) => (suite?.children ?? []).filter((c) => c.name === 'testcase');
const failureOf = (c: XmlElement | undefined) => c?.children.find((x) => x.name === 'failure');

describe('forge ci: the tests decide', () => {
  it('exits 7 for a project whose test script fails, with the verdict and the output in the JUnit report', async () => {
    const zip = failingNodeScript();
    const run = await ci([zip, '--junit', 'j.xml', '--json']);
    expect(run.code, run.stderr).toBe(7);
    const result = buildResult(run.stdout);
    // The build itself succeeded: its status is its own; the verdict is the tests'.
    expect(result).toMatchObject({
      projectName: 'p',
      status: 'succeeded',
      tests: { status: 'failed', policy: 'required', policySource: 'default', counts: null },
      error: { code: 'TESTS_FAILED' },
      junit: join(sandbox.cwd, 'j.xml'),
    });
    expect(result.error!.message).toContain('npm run test exited with an error');
    expect(run.stderr).toMatch(
      /^ {2}tests +failed: npm run test exited with an error in \S+ · required \(default\) → exit 7$/m,
    );

    const suites = junit('j.xml');
    expect([...suites.keys()]).toEqual(['p', 'forge']);
    // A runner Forge cannot read: one case, the test command, with the tail of its output.
    const [only, ...more] = cases(suites.get('p'));
    expect(more).toEqual([]);
    expect(only!.attributes).toMatchObject({ name: 'npm run test', classname: 'p' });
    expect(failureOf(only)?.text).toContain('1 test failed');
    // Forge's steps are their own suite, and TestBot running the tests is not a failure of Forge's.
    const forge = suites.get('forge')!;
    expect(cases(forge).map((c) => c.attributes.name)).toEqual(expect.arrayContaining(['build', 'test']));
    expect(forge.attributes.failures).toBe('0');
  });

  it("names node --test's own cases in the report: 2 passed, 1 failed with its message", async () => {
    const zip = project('node-tests', { test: 'node --test' }, { 'test/cart.test.js': NODE_TESTS });
    const run = await ci([zip, '--junit', 'j.xml', '--json']);
    expect(run.code, run.stderr).toBe(7);
    expect(buildResult(run.stdout).tests).toMatchObject({
      status: 'failed',
      counts: { passed: 2, failed: 1, skipped: 0, total: 3 },
      summary: '1 failed, 2 passed (npm run test)',
    });
    const suite = junit('j.xml').get('node-tests')!;
    expect(suite.attributes).toMatchObject({ tests: '3', failures: '1', errors: '0', skipped: '0' });
    const byName = new Map(cases(suite).map((c) => [c.attributes.name, c]));
    expect([...byName.keys()]).toEqual(['adds', 'subtracts', 'totals']);
    expect(failureOf(byName.get('adds'))).toBeUndefined();
    expect(byName.get('totals')!.attributes.classname).toBe('cart');
    expect(failureOf(byName.get('totals'))?.attributes.message).toBe('the total is off');
  });

  it('--tests optional: the same failing tests are reported and the exit is 0', async () => {
    const zip = project('node-tests', { test: 'node --test' }, { 'test/cart.test.js': NODE_TESTS });
    const run = await ci([zip, '--json', '--tests', 'optional', '--junit', 'j.xml']);
    expect(run.code, run.stderr).toBe(0);
    const result = buildResult(run.stdout);
    expect(result.tests).toMatchObject({ status: 'failed', policy: 'optional', policySource: 'option' });
    expect(result.error).toBeUndefined();
    expect(run.stderr).toContain('--tests optional → reported only');
    expect(junit('j.xml').get('node-tests')!.attributes.failures).toBe('1');
  });

  it('--tests skip: the tests are not run at all', async () => {
    const zip = failingNodeScript();
    const run = await ci([zip, '--json', '--tests', 'skip', '--logs', '--junit', 'j.xml']);
    expect(run.code, run.stderr).toBe(0);
    expect(buildResult(run.stdout).tests).toMatchObject({
      status: 'skipped',
      policy: 'skip',
      summary: 'skipped (--tests skip)',
    });
    expect(run.stderr).toContain('Tests not run (--tests skip).');
    expect(run.stderr).not.toContain('1 test failed');
    expect(run.stderr).toMatch(/^ {2}test +TestBot +\S+ +skipped +skipped \(--tests skip\)$/m);
    const [skipped] = cases(junit('j.xml').get('p'));
    expect(skipped!.children[0]).toMatchObject({
      name: 'skipped',
      attributes: { message: 'skipped (--tests skip)' },
    });
  });

  it('honours the forge config\'s "tests" setting, and --tests wins over it', async () => {
    const config = {
      '.forgerc.json': JSON.stringify({ tests: 'optional' }),
      'test.js': 'process.exit(1);\n',
    };
    const zip = project('configured', { test: 'node test.js' }, config);
    const optional = await ci([zip, '--json']);
    expect(optional.code, optional.stderr).toBe(0);
    expect(buildResult(optional.stdout).tests).toMatchObject({
      status: 'failed',
      policy: 'optional',
      policySource: 'config',
    });
    const required = await ci([zip, '--json', '--tests', 'required']);
    expect(required.code, required.stderr).toBe(7);
    expect(buildResult(required.stdout).tests).toMatchObject({
      policy: 'required',
      policySource: 'option',
    });
  });

  it('exits 0 for a project whose tests pass, and says so', async () => {
    const passing = NODE_TESTS.replace('2 * 2, 5', '2 * 2, 4');
    const zip = project('green', { test: 'node --test' }, { 'test/cart.test.js': passing });
    const run = await ci([zip, '--json', '--junit', 'j.xml']);
    expect(run.code, run.stderr).toBe(0);
    expect(buildResult(run.stdout)).toMatchObject({
      status: 'succeeded',
      tests: { status: 'passed', counts: { passed: 3, failed: 0, total: 3 } },
    });
    expect(junit('j.xml').get('green')!.attributes).toMatchObject({ tests: '3', failures: '0' });
  });

  it("names a Vitest project's own cases (installed from the registry)", { timeout: 240_000 }, async () => {
    const zip = project(
      'vitest-app',
      { test: 'vitest' },
      {
        'src/math.test.js': `import { describe, expect, it } from 'vitest';
describe('math', () => {
  it('adds', () => expect(1 + 1).toBe(2));
  it('subtracts', () => expect(2 - 1).toBe(1));
  it('multiplies', () => expect(2 * 2).toBe(5));
});
`,
      },
      { type: 'module', devDependencies: { vitest: '3.2.4' } },
    );
    const run = await ci([zip, '--json', '--junit', 'j.xml']);
    expect(run.code, run.stderr).toBe(7);
    expect(buildResult(run.stdout).tests).toMatchObject({
      status: 'failed',
      counts: { passed: 2, failed: 1, total: 3 },
    });
    const suite = junit('j.xml').get('vitest-app')!;
    expect(cases(suite).map((c) => [c.attributes.classname, c.attributes.name])).toEqual([
      ['src/math.test.js', 'math > adds'],
      ['src/math.test.js', 'math > subtracts'],
      ['src/math.test.js', 'math > multiplies'],
    ]);
    expect(failureOf(cases(suite)[2])?.attributes.message).toContain('expected 4 to be 5');
  });
});

describe('forge upload --wait: the tests decide as well', () => {
  it('exits 7 when the tests fail, 0 with --tests optional', async () => {
    const start = await sandbox.run(['daemon', 'start']);
    expect(start.code, start.stderr).toBe(0);
    const zip = failingNodeScript();
    const run = await sandbox.run(['upload', zip, '--wait', '--json']);
    expect(run.code, run.stderr).toBe(7);
    expect(buildResult(run.stdout)).toMatchObject({
      status: 'succeeded',
      tests: { status: 'failed', policy: 'required' },
      error: { code: 'TESTS_FAILED' },
    });
    const optional = await sandbox.run(['upload', zip, '--wait', '--json', '--tests', 'optional']);
    expect(optional.code, optional.stderr).toBe(0);
    const build = await sandbox.run(['build', 'p', '--wait', '--json']);
    expect(build.code, build.stderr).toBe(7);
  });
});
