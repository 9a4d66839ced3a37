import fs from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Build, BuildLogsResponse, UploadResult } from '@forge/shared';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';

// A server app's start is trialled like a build: a proposed repair (autoRepair off) of a start that
// failed is applied to a scratch copy, the install run there, and the app started on a free
// loopback port in the same sandbox; it is verified once it listens and answers, then stopped.
// Real Express apps installed from the npm registry, whose server file requires a package that
// package.json does not declare.

afterEach(cleanup);

const BUILD_TIMEOUT_MS = 240_000;

const SERVER_JS = `const express = require('express');
const pc = require('picocolors');

const app = express();
app.get('/', (_req, res) => res.json({ greeting: 'hello' }));
const port = Number(process.env.PORT) || 3000;
app.listen(port, process.env.HOST, () => console.log(pc.green('greeter listening on ' + port)));
`;

const greeter = (name: string, serverJs = SERVER_JS) => ({
  'package.json': `${JSON.stringify(
    {
      name,
      version: '1.0.0',
      private: true,
      scripts: { start: 'node server.js' },
      dependencies: { express: '^5.1.0' },
    },
    null,
    2,
  )}\n`,
  'server.js': serverJs,
});

/** After the missing package, the app stops at a variable it was not given. */
const NEEDS_SECRET = SERVER_JS.replace(
  'const app = express();',
  "if (!process.env.SESSION_SECRET) throw new Error('SESSION_SECRET is not set');\nconst app = express();",
);

async function failWithProposal(app: TestApp, name: string, files: Record<string, string>): Promise<Build> {
  const live = await watch(app);
  const res = await fetch(`${app.url}/api/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ autoRepair: false }),
  });
  expect(res.status).toBe(200);
  const uploaded = (await (await upload(app, makeZip(`${name}.zip`, files))).json()) as UploadResult;
  const build = await live.finished(uploaded.buildId!, BUILD_TIMEOUT_MS);
  expect(build.status).toBe('failed');
  expect(build.error?.code).toBe('PREVIEW_FAILED');
  expect(build.diagnosis).toMatchObject({
    code: 'MISSING_PACKAGE',
    file: 'server.js',
    line: 2,
    subjects: ['picocolors'],
    repair: 'ADD_MISSING_PACKAGES',
  });
  return build;
}

async function logLines(app: TestApp, buildId: string): Promise<string[]> {
  const res = await fetch(`${app.url}/api/builds/${buildId}/logs?limit=10000`);
  return ((await res.json()) as BuildLogsResponse).entries.map((e) => `${e.botName}: ${e.message}`);
}

/** Whether anything accepts a TCP connection on 127.0.0.1:port. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => resolve(true));
    socket.once('error', () => resolve(false));
  });

const projectFiles = (app: TestApp, name: string) =>
  Object.fromEntries(
    ['package.json', 'server.js'].map((f) => [
      f,
      fs.readFileSync(path.join(app.home, 'projects', name, f), 'utf8'),
    ]),
  );

describe('a repair of a server app that does not start is proven by starting it on a copy', () => {
  it(
    'labels the repair "verified: the build passes" once the app listens and answers, then stops it',
    async () => {
      const app = await startTestApp();
      const files = greeter('greeter-api');
      const build = await failWithProposal(app, 'greeter-api', files);
      expect(build.repairs).toEqual([
        expect.objectContaining({
          code: 'ADD_MISSING_PACKAGES',
          status: 'proposed',
          files: ['package.json'],
          verification: { status: 'passes', detail: 'verified: the build passes' },
        }),
      ]);
      const lines = await logLines(app, build.id);
      expect(lines).toContain('RepairBot: Starting the app on the copy: $ npm run start');
      // It was given a free loopback port, answered there, and is gone: nothing listens there now.
      const answered = lines
        .map((l) =>
          /^RepairBot: The app on the copy listened at http:\/\/127\.0\.0\.1:(\d+) and answered \(HTTP 200\); it was stopped\.$/.exec(
            l,
          ),
        )
        .find(Boolean);
      expect(answered, lines.join('\n')).toBeTruthy();
      expect(await accepts(Number(answered![1]))).toBe(false);
      expect(lines).toContain('RepairBot: ADD_MISSING_PACKAGES verified: the build passes');
      // The user's files are as uploaded; the copy is removed.
      expect(projectFiles(app, 'greeter-api')).toEqual(files);
      const tmp = path.join(app.home, 'tmp');
      await expect
        .poll(
          () => (fs.existsSync(tmp) ? fs.readdirSync(tmp).filter((f) => f.includes('repair-trial')) : []),
          {
            timeout: 30_000,
          },
        )
        .toEqual([]);
    },
    BUILD_TIMEOUT_MS + 60_000,
  );

  it(
    'labels it with what the start then fails on when the app still exits before it listens',
    async () => {
      const app = await startTestApp();
      const files = greeter('greeter-secret', NEEDS_SECRET);
      const build = await failWithProposal(app, 'greeter-secret', files);
      const [repair] = build.repairs;
      expect(repair).toMatchObject({ code: 'ADD_MISSING_PACKAGES', status: 'proposed' });
      expect(repair!.verification?.status).toBe('partial');
      expect(repair!.verification!.detail).toMatch(
        /^verified: fixes 1 of 1 error; the build then fails: .*SESSION_SECRET.*\(server\.js:4/,
      );
      const lines = await logLines(app, build.id);
      expect(lines.some((l) => l.startsWith('RepairBot: The app on the copy listened'))).toBe(false);
      expect(projectFiles(app, 'greeter-secret')).toEqual(files);
    },
    BUILD_TIMEOUT_MS + 60_000,
  );
});
