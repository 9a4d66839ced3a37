import fs from 'node:fs';
import path from 'node:path';
import { isBuildState, type Build, type ServerMessage } from '@forge/shared';
import { received, writeZip, type ProjectFiles } from '@forge/testing';
import { WebSocket } from 'ws';
import { onCleanup, tempDir, type TestApp } from './helpers.ts';

/** Write a project ZIP with the given files into a fresh temporary folder; returns its path. */
export const makeZip = (name: string, files: ProjectFiles): string =>
  writeZip(tempDir('forge-zip-'), name, files);

export async function upload(app: TestApp, zipPath: string, query = ''): Promise<Response> {
  const form = new FormData();
  form.set('file', new Blob([fs.readFileSync(zipPath)]), path.basename(zipPath));
  return fetch(`${app.url}/api/upload${query}`, { method: 'POST', body: form });
}

/** Every /ws message from now on, with a way to await the end of one build. */
export async function watch(app: TestApp) {
  const ws = new WebSocket(`${app.url.replace('http', 'ws')}/ws`);
  const log = received<ServerMessage>((m) => m.type);
  const { items: messages, until } = log;
  ws.on('message', (data) => log.push(JSON.parse(data.toString()) as ServerMessage));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  onCleanup(() => ws.terminate());
  return {
    messages,
    until,
    /**
     * Resolves with the stored record once the build has finished, after checking what every
     * client relies on: each stage message of the build is a state of the build machine, and the
     * record, its last stage message and build-finished all say the same (status, stage).
     */
    async finished(buildId: string, timeoutMs?: number): Promise<Build> {
      const end = await until((m) => m.type === 'build-finished' && m.buildId === buildId, timeoutMs);
      const build = (await (await fetch(`${app.url}/api/builds/${buildId}`)).json()) as Build;
      const moves = messages.filter(
        (m): m is Extract<ServerMessage, { type: 'build-stage' }> =>
          m.type === 'build-stage' && m.buildId === buildId,
      );
      for (const m of moves) {
        if (!isBuildState(m)) throw new Error(`build ${buildId} announced (${m.status}, ${m.stage})`);
      }
      const last = moves.at(-1);
      const said = [
        [build.status, build.stage],
        [(end as { status: string }).status, (end as { stage: string }).stage],
        ...(last ? [[last.status, last.stage]] : []),
      ].map((pair) => pair.join('/'));
      if (new Set(said).size !== 1 || !isBuildState(build)) {
        throw new Error(`build ${buildId} ended disagreeing with itself: ${said.join(' | ')}`);
      }
      return build;
    },
    stagesOf: (buildId: string) =>
      messages
        .filter((m) => m.type === 'build-stage' && m.buildId === buildId)
        .map((m) => (m as { stage: string }).stage),
  };
}

/**
 * Live (non-zombie) processes whose command line contains `marker`. Pids printed inside the build
 * sandbox are namespace pids, so tests find their processes by a unique marker instead.
 */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(marker) && isAlive(Number(entry))) found.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    // A zombie (pid 1 here does not reap) is dead for our purposes.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
};

export const STATIC_SITE = {
  'site/index.html':
    '<!doctype html><html><head><link rel="stylesheet" href="style.css"></head><body><h1>Hello static</h1><script src="/app.js"></script></body></html>',
  'site/style.css': 'h1 { color: teal }',
  'site/app.js': 'console.log("hi")',
  'site/.env': 'SECRET=1',
};

/** A project with no dependencies whose build script writes dist/ (fast: no install). */
export const ZERO_DEP_BUILD = {
  'package.json': JSON.stringify({ name: 'zero', private: true, scripts: { build: 'node build.js' } }),
  'build.js': `const fs = require('fs');
fs.mkdirSync('dist/assets', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><html><body><div id="app">Built by Forge</div><script type="module" src="/assets/app.js"></script></body></html>');
fs.writeFileSync('dist/assets/app.js', 'document.getElementById("app").dataset.ok = "1";');
console.log('built 2 files');
console.error('a warning on stderr');`,
};

/** Uploads a project made of `files` and waits for its build to end (a real install and build). */
export async function buildOf(
  app: TestApp,
  name: string,
  files: ProjectFiles,
  timeoutMs = 170_000,
): Promise<Build> {
  const live = await watch(app);
  const res = await upload(app, makeZip(`${name}.zip`, files));
  const result = (await res.json()) as { buildId?: string };
  if (!result.buildId) throw new Error(`The upload of ${name} started no build: ${JSON.stringify(result)}`);
  return live.finished(result.buildId, timeoutMs);
}

/** A build's log messages, one a line. */
export async function logsOf(app: TestApp, buildId: string): Promise<string> {
  const res = await fetch(`${app.url}/api/builds/${buildId}/logs?limit=10000`);
  const body = (await res.json()) as { entries: Array<{ message: string }> };
  return body.entries.map((e) => e.message).join('\n');
}
