import { CliResult, type CliBuildResult } from '@forge/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFailureProject } from '@forge/testing';
import { Sandbox, type RunResult } from './helpers.ts';

// A failed build as forge shows it, against the real built daemon (docs/pipeline.md "Previews and
// failures"): the first error line with its file:line comes first, then the message, then the
// command that prints the whole log — in --json, in the --wait summary, in forge status and forge logs.

let sandbox: Sandbox;
let failed: CliBuildResult;
let human: RunResult;
beforeAll(async () => {
  sandbox = await Sandbox.withDaemon();
  const json = await sandbox.run([
    'upload',
    writeFailureProject(sandbox.cwd, 'type-error'),
    '--wait',
    '--json',
  ]);
  expect(json.code, json.stderr).toBe(1);
  const result = CliResult.parse(JSON.parse(json.stdout));
  if (result.status === 'error' || result.status === 'refused') throw new Error(json.stdout);
  failed = result;
  human = await sandbox.run(['upload', writeFailureProject(sandbox.cwd, 'type-error', 'again'), '--wait']);
});
afterAll(async () => {
  await sandbox.dispose();
});

const FIRST = "error TS2322: Type 'number' is not assignable to type 'string'.";
const TYPE_ERROR = {
  file: 'src/app.ts',
  line: 3,
  column: 7,
  code: 'TS2322',
  message: "Type 'number' is not assignable to type 'string'.",
  tool: 'tsc',
};
/** The rows listing both errors under the message, in every view (the primary one marked ▶). */
const LIST = [
  /errors +2 errors \(tsc\):$/,
  /▶ +src\/app\.ts:3:7 {2}TS2322 {2}Type 'number' is not assignable to type 'string'\.$/,
  /^ +src\/app\.ts:1:21 {2}TS2307 {2}Cannot find module '\.\/sum' or its corresponding type declarations\.$/,
];

/** Index of the first line that contains `text`; -1 when none. */
const lineOf = (lines: string[], text: string) => lines.findIndex((line) => line.includes(text));

describe('a failed build in forge', () => {
  it('--json: the error has its first line, its place, what to do and the log command', () => {
    expect(failed).toMatchObject({ status: 'failed', stage: 'build-failed' });
    expect(failed.error).toEqual({
      code: 'BUILD_FAILED',
      message: expect.stringMatching(/exited with code 2$/),
      firstLine: FIRST,
      location: 'src/app.ts:3:7',
      hint: expect.any(String),
      logCommand: `forge logs ${failed.buildId}`,
      // The build printed two errors: both are listed, the first one primary.
      errors: [
        { ...TYPE_ERROR, primary: true },
        {
          file: 'src/app.ts',
          line: 1,
          column: 21,
          code: 'TS2307',
          message: "Cannot find module './sum' or its corresponding type declarations.",
          tool: 'tsc',
        },
      ],
      errorCount: 2,
    });
  });

  it('--wait: the summary puts the first error line before the message, and the log command after', () => {
    expect(human.code).toBe(1);
    const lines = human.stderr.split('\n');
    const first = lines.findIndex((line) =>
      new RegExp(`^ {2}error +src/app\\.ts:3:7  ${escape(FIRST)}$`).test(line),
    );
    expect(first, human.stderr).toBeGreaterThan(0);
    expect(lines[first + 1]).toMatch(/^ +npm run build exited with code 2 \[BUILD_FAILED\]$/);
    const log = lines.findIndex((line) => /^ {2}log +forge logs /.test(line));
    expect(log).toBeGreaterThan(first + 1);
  });

  it("ScanBot's diagnosis names the cause and its place, in --json and in the summary", () => {
    // The project imports ./sum, which is not there: the type error follows from it.
    expect(failed.diagnosis).toMatchObject({ code: 'MISSING_FILE', file: 'src/app.ts', line: 1, column: 21 });
    expect(failed.repairs).toEqual([]);
    const lines = human.stderr.split('\n');
    const message = lineOf(lines, 'npm run build exited with code 2 [BUILD_FAILED]');
    LIST.forEach((row, i) => expect(lines[message + 1 + i]).toMatch(row));
    expect(lines[message + 4]).toMatch(/^ {2}diagnosis {2}.*\.\/sum.* \[MISSING_FILE\]$/);
    expect(lines[message + 5]).toBe('  at         src/app.ts:1:21');
  });

  it('forge status says why the latest build failed', async () => {
    const status = await sandbox.run(['status']);
    expect(status.code, status.stderr).toBe(0);
    const lines = status.stdout.split('\n');
    const first = lineOf(lines, `  src/app.ts:3:7  ${FIRST}`);
    expect(first, status.stdout).toBeGreaterThan(0);
    expect(lines[first + 1]).toMatch(/exited with code 2 \[BUILD_FAILED\]$/);
    // Then ScanBot's reading (diagnosis, at, fix), then where the whole log is.
    const log = lines.findIndex((line) => /^ {2}full log: forge logs \S+$/.test(line));
    expect(log, status.stdout).toBeGreaterThan(first + 1);
    // Every error the build printed, the primary one marked.
    expect(lines.slice(first + 2, first + 5)).toEqual([
      '  2 errors (tsc):',
      "  ▶ src/app.ts:3:7  TS2322  Type 'number' is not assignable to type 'string'.",
      "  src/app.ts:1:21  TS2307  Cannot find module './sum' or its corresponding type declarations.",
    ]);
    for (const line of lines.slice(first + 5, log)) expect(line).toMatch(/^ {2}(diagnosis|at|fix): /);
    expect(lines[first + 5]).toMatch(/^ {2}diagnosis: .+ \[[A-Z_]+\]$/);
  });

  it('forge logs ends with why it failed, after the whole log, then the diagnosis', async () => {
    const logs = await sandbox.run(['logs', failed.buildId]);
    expect(logs.code, logs.stderr).toBe(0);
    // The whole log on stdout, the tool's own lines included.
    expect(logs.stdout).toContain('checking 2 files…');
    expect(logs.stdout).toContain(`First error: ${FIRST}`);
    const lines = logs.stderr.trimEnd().split('\n');
    const heading = lines.indexOf(`Build ${failed.buildId} failed:`);
    expect(heading, logs.stderr).toBeGreaterThan(0);
    expect(lines[heading + 1]).toMatch(new RegExp(`^ {2}error +src/app\\.ts:3:7  ${escape(FIRST)}$`));
    expect(lines[heading + 2]).toMatch(/^ +npm run build exited with code 2 \[BUILD_FAILED\]$/);
    LIST.forEach((row, i) => expect(lines[heading + 3 + i]).toMatch(row));
    expect(lines[heading + 6]).toMatch(/^ {2}diagnosis {2}.+ \[[A-Z_]+\]$/);
    // Nothing else comes after the diagnosis rows (the last line is one of them).
    expect(lines.at(-1)).toMatch(/^ {2}(diagnosis|at|fix|repair|repaired) +\S/);
  });
});

/** `text` as a literal inside a RegExp. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
