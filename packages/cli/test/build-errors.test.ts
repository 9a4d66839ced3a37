import { Build, CliResult, type CliBuildResult } from '@forge/shared';
import { writeZip } from '@forge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox, type RunResult } from './helpers.ts';

// A real TypeScript project with two mistakes in two files — an import of a file that is not there,
// and a type error — built with the real tsc installed from the npm registry: the failed build lists
// both, with file:line:col and tsc's codes, in its record, in `forge upload --wait` (human and --json)
// and in `forge logs`.

const PROJECT = {
  'package.json': JSON.stringify(
    {
      name: 'two-errors',
      private: true,
      scripts: { build: 'tsc' },
      devDependencies: { typescript: '5.9.3' },
    },
    null,
    2,
  ),
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      strict: true,
      module: 'esnext',
      moduleResolution: 'bundler',
      target: 'es2022',
      outDir: 'dist',
    },
    include: ['src'],
  }),
  'src/main.ts': "import { price } from './prices';\n\nexport const label = `${price} EUR`;\n",
  'src/cart.ts': "export const items: string[] = [];\n\nexport const total: number = 'ten';\n",
};

const MISSING_FILE = {
  file: 'src/main.ts',
  line: 1,
  column: 23,
  code: 'TS2307',
  message: "Cannot find module './prices' or its corresponding type declarations.",
  tool: 'tsc',
};
const TYPE_ERROR = {
  file: 'src/cart.ts',
  line: 3,
  column: 14,
  code: 'TS2322',
  message: "Type 'string' is not assignable to type 'number'.",
  tool: 'tsc',
};

let sandbox: Sandbox;
let result: CliBuildResult;
let human: RunResult;
beforeAll(async () => {
  sandbox = await Sandbox.withDaemon();
  writeZip(sandbox.cwd, 'two-errors.zip', PROJECT);
  const json = await sandbox.run(['upload', 'two-errors.zip', '--wait', '--json']);
  expect(json.code, json.stderr).toBe(1);
  const parsed = CliResult.parse(JSON.parse(json.stdout));
  if (parsed.status !== 'failed') throw new Error(json.stdout);
  result = parsed;
  human = await sandbox.run(['build', 'two-errors', '--wait']);
}, 300_000);
afterAll(async () => {
  await sandbox.dispose();
});

/** tsc reports the files in the order it checks them: the list keeps that order. */
const both = (errors: readonly { file?: string }[] | undefined) =>
  [...(errors ?? [])].sort((a, b) => (a.file ?? '').localeCompare(b.file ?? ''));

describe('a failed build with two errors in two files', () => {
  it('the build record lists both, in the order tsc printed them, the first one primary', async () => {
    const { url } = sandbox.state()!;
    const record = Build.parse(await (await fetch(`${url}/api/builds/${result.buildId}`)).json());
    expect(record.status).toBe('failed');
    const errors = record.error?.errors ?? [];
    expect(record.error?.errorCount).toBe(2);
    expect(both(errors)).toEqual([
      expect.objectContaining(TYPE_ERROR),
      expect.objectContaining(MISSING_FILE),
    ]);
    expect(errors[0]!.primary).toBe(true);
    expect(errors[1]!.primary).toBeUndefined();
    // The primary one is the error the build names first.
    expect(record.error?.firstLine).toBe(`error ${errors[0]!.code}: ${errors[0]!.message}`);
    expect(record.error?.location).toMatchObject({ file: errors[0]!.file, line: errors[0]!.line });
  });

  it('--json carries both in error.errors', () => {
    expect(result.error?.code).toBe('BUILD_FAILED');
    expect(result.error?.errorCount).toBe(2);
    expect(both(result.error?.errors)).toEqual([
      expect.objectContaining(TYPE_ERROR),
      expect.objectContaining(MISSING_FILE),
    ]);
  });

  it('--wait prints both with file:line:col and code, the primary one marked', () => {
    expect(human.code, human.stderr).toBe(1);
    const lines = human.stderr.split('\n');
    const heading = lines.findIndex((line) => /^ {2}errors +2 errors \(tsc\):$/.test(line));
    expect(heading, human.stderr).toBeGreaterThan(0);
    const rows = lines.slice(heading + 1, heading + 3);
    expect(rows[0]).toMatch(/^ {2}▶ +src\/\w+\.ts:\d+:\d+ {2}TS\d+ {2}/);
    expect(rows[1]).toMatch(/^ {4,}src\/\w+\.ts:\d+:\d+ {2}TS\d+ {2}/);
    expect(rows.join('\n')).toContain("src/main.ts:1:23  TS2307  Cannot find module './prices'");
    expect(rows.join('\n')).toContain(
      "src/cart.ts:3:14  TS2322  Type 'string' is not assignable to type 'number'.",
    );
  });

  it('forge logs ends with both', async () => {
    const logs = await sandbox.run(['logs', result.buildId]);
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stderr).toMatch(/^ {2}errors +2 errors \(tsc\):$/m);
    expect(logs.stderr).toContain('src/main.ts:1:23  TS2307');
    expect(logs.stderr).toContain('src/cart.ts:3:14  TS2322');
  });
});
