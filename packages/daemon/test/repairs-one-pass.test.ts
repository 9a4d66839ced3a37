import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Build, Settings, UploadResult } from '@forge/shared';
import { SEVERAL_ERRORS_MAIN, severalErrors, type BrokenProject } from '@forge/testing';
import type { TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';
import { RealDaemon } from './real-repos/harness.ts';

// A failure with several errors is diagnosed whole, and every repairable error is repaired in one
// pass: a real TypeScript + Vite project whose tsc prints three (two imports in the wrong case, an
// undeclared package), installed from the npm registry and built by a real daemon process.

const BUILD_TIMEOUT_MS = 300_000;
const TEST_TIMEOUT_MS = BUILD_TIMEOUT_MS + 60_000;

let daemon: RealDaemon;
let app: TestApp;
let live: Awaited<ReturnType<typeof watch>>;
let home: string;

beforeAll(async () => {
  daemon = await RealDaemon.start('one-pass', { buildTimeoutMs: BUILD_TIMEOUT_MS });
  ({ app, home } = daemon);
  live = await watch(app);
}, 60_000);

afterAll(() => daemon?.stop(), 120_000);

async function setAutoRepair(on: boolean): Promise<void> {
  const res = await fetch(`${app.url}/api/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ autoRepair: on }),
  });
  expect(((await res.json()) as Settings).autoRepair).toBe(on);
}

async function build(project: BrokenProject): Promise<Build> {
  const res = await upload(app, makeZip(`${project.name}.zip`, project.files));
  const result = (await res.json()) as UploadResult;
  expect(res.status).toBe(200);
  return live.finished(result.buildId!, BUILD_TIMEOUT_MS);
}

/** The same three slips and a type error no repair may touch. */
function withTypeError(): BrokenProject {
  const base = severalErrors('three-slips-and-a-type');
  return {
    ...base,
    files: { ...base.files, 'src/count.ts': "export const count: number = 'three'\n" },
  };
}

describe('every error diagnosed, every repairable one repaired in one pass', () => {
  it(
    'proposes one repair for all three errors, proven on a copy: the build passes',
    async () => {
      await setAutoRepair(false);
      const project = severalErrors();
      const failed = await build(project);
      expect(failed.status).toBe('failed');
      // The tool printed all three; ScanBot diagnosed each.
      expect(failed.error?.errors?.length).toBeGreaterThanOrEqual(3);
      expect(failed.diagnosis).toMatchObject({ code: 'MISSING_PACKAGE', subjects: ['clsx'] });
      expect(failed.diagnosis!.others).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            code: 'IMPORT_CASE_MISMATCH',
            file: 'src/main.ts',
            line: 1,
            subjects: ['./Greeting', './greeting'],
            repair: 'FIX_IMPORT_CASE',
          }),
          expect.objectContaining({
            code: 'IMPORT_CASE_MISMATCH',
            file: 'src/main.ts',
            line: 2,
            subjects: ['./Cart', './cart'],
            repair: 'FIX_IMPORT_CASE',
          }),
        ]),
      );
      // One proposal makes all three repairs, and its trial on a copy built the project.
      expect(failed.repairs).toHaveLength(1);
      const [repair] = failed.repairs;
      expect(repair).toMatchObject({
        code: 'ADD_MISSING_PACKAGES',
        status: 'proposed',
        verification: { status: 'passes', detail: 'verified: the build passes' },
      });
      expect([...repair!.files].sort()).toEqual(project.expected.repairedFiles);
      expect(repair!.diff).toContain("+import { greet } from './greeting'");
      expect(repair!.diff).toContain("+import { total } from './cart'");
      expect(repair!.diff).toContain('"clsx"');
      // Nothing was written into the project by the trial.
      const projectDir = path.join(home, 'projects', project.name);
      expect(fs.readFileSync(path.join(projectDir, 'src/main.ts'), 'utf8')).toBe(SEVERAL_ERRORS_MAIN);
      expect(fs.readFileSync(path.join(projectDir, 'package.json'), 'utf8')).toBe(
        project.files['package.json'],
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'with autoRepair on, repairs the three in one pass and says the type error remains',
    async () => {
      await setAutoRepair(true);
      const project = withTypeError();
      const done = await build(project);
      expect(done.status).toBe('failed');
      // One repair, kept: the build got further (only the type error is left).
      expect(done.repairs).toEqual([
        expect.objectContaining({ code: 'ADD_MISSING_PACKAGES', status: 'applied' }),
      ]);
      expect(done.diagnosis).toMatchObject({ code: 'TYPE_ERROR', file: 'src/count.ts', line: 1 });
      expect(done.diagnosis!.repair).toBeUndefined();
      const main = fs.readFileSync(path.join(home, 'projects', project.name, 'src/main.ts'), 'utf8');
      expect(main).toContain("from './greeting'");
      expect(main).toContain("from './cart'");
      // The file with the type error is as uploaded: no repair touched what it did not need to.
      expect(fs.readFileSync(path.join(home, 'projects', project.name, 'src/count.ts'), 'utf8')).toBe(
        project.files['src/count.ts'],
      );
    },
    TEST_TIMEOUT_MS,
  );
});
