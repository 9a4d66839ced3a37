import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadResult } from '@forge/shared';
import {
  commonJsInEsm,
  esmInCommonJs,
  esmMissingExtension,
  importCaseMismatch,
  missingEnvVariable,
  outputElsewhere,
  peerConflict,
  severalErrors,
  typeError,
} from '@forge/testing';
import type { TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';
import { RealDaemon } from './real-repos/harness.ts';
import { runRepairCases, score, table } from '../bench/repairs/run.ts';

// The smaller version of `pnpm bench assistants` for RepairBot, run in CI: nine kinds of the
// broken-project catalogue (four need no registry, five install from npm), scored the same way as
// the full benchmark by a real daemon process.

const BUILD_TIMEOUT_MS = 300_000;

let daemon: RealDaemon;
let app: TestApp;
let home: string;

beforeAll(async () => {
  daemon = await RealDaemon.start('repair-bench', { buildTimeoutMs: BUILD_TIMEOUT_MS });
  ({ app, home } = daemon);
}, 60_000);

afterAll(() => daemon?.stop(), 120_000);

describe('RepairBot benchmark, CI subset', () => {
  it(
    'repairs and rebuilds green every repairable kind, explains every kind at its file:line, changes nothing beyond need',
    async () => {
      const live = await watch(app);
      const outcomes = await runRepairCases(
        {
          commonJsInEsm: commonJsInEsm('bench-cjs'),
          esmInCommonJs: esmInCommonJs('bench-mjs'),
          esmMissingExtension: esmMissingExtension('bench-ext'),
          outputElsewhere: outputElsewhere('bench-out'),
          missingEnvVariable: missingEnvVariable('bench-env'),
          importCaseMismatch: importCaseMismatch('bench-case'),
          severalErrors: severalErrors('bench-three'),
          typeError: typeError('bench-type'),
          peerConflict: await peerConflict('bench-peers'),
        },
        async (name, project, autoRepair) => {
          const res = await fetch(`${app.url}/api/settings`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ autoRepair }),
          });
          expect(res.status).toBe(200);
          const up = (await (
            await upload(app, makeZip(`${name}.zip`, project.files))
          ).json()) as UploadResult;
          return live.finished(up.buildId!, BUILD_TIMEOUT_MS);
        },
        (name) => path.join(home, 'projects', name),
      );
      const s = score(outcomes);
      expect(s, table(outcomes) + '\n' + outcomes.map((o) => o.note ?? '').join('\n')).toEqual({
        kinds: 9,
        repairable: 7,
        passed: 7,
        explained: 9,
        overreach: 0,
      });
    },
    BUILD_TIMEOUT_MS * 3,
  );
});
