/**
 * Secrets (docs/reliability.md#secrets): canaries in the daemon's environment and in a project's `.env` must
 * never reach the daemon's logs (stdout, stderr, FORGE_HOME/logs), any /ws message, the build record, the
 * build output artifact or an error body; a build that dumps its whole environment proves it sees only the
 * allow-list.
 *
 * Decision on the project's own `.env`: it is the user's file, so the *project* download returns it
 * (they uploaded it); Forge itself never reads it into a command's environment, never logs or
 * broadcasts its values, and the build *output* holds it only if the project's own build copies it
 * there (this one does not). The daemon's canaries appear nowhere at all, the project download
 * included.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Build, UploadResult } from '@forge/shared';
import { WebSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { makeZip } from '../build-helpers.ts';
import { cleanup, tempDir, userPackageCaches } from '../helpers.ts';
import { spawnDaemon } from '../process-helpers.ts';

afterEach(cleanup);

const DAEMON_CANARIES = {
  FORGE_CANARY_SECRET: 'canary-forge-7d1f3a9e',
  AWS_SECRET_ACCESS_KEY: 'canary-aws-4b2c8e61',
  GITHUB_TOKEN: 'canary-ghp-9a0e5d27',
  NPM_TOKEN: 'canary-npm-31c6f0b8',
  // Allow-listed by prefix, denied by name: the deny list wins.
  XDG_SESSION_PASSWORD: 'canary-xdg-62d9a4c3',
};
const PROJECT_CANARY = 'canary-dotenv-5e8b1f04';
const daemonValues = Object.values(DAEMON_CANARIES);

/** A build that prints its environment and writes it into its output. */
const LEAKY_PROJECT = {
  'package.json': JSON.stringify({ name: 'leaky', private: true, scripts: { build: 'node dump-env.js' } }),
  '.env': `API_SECRET=${PROJECT_CANARY}\n`,
  'dump-env.js': `const fs = require('fs');
    fs.mkdirSync('dist', { recursive: true });
    const text = Object.entries(process.env).map(([k, v]) => k + '=' + v).sort().join('\\n');
    fs.writeFileSync('dist/env.txt', text);
    fs.writeFileSync('dist/index.html', '<!doctype html><title>leaky</title>');
    console.log(text);
    console.error('names: ' + Object.keys(process.env).sort().join(' '));`,
};

const leaksIn = (text: string, values: readonly string[]) => values.filter((value) => text.includes(value));

/** All text of a ZIP's entries (names and contents), or of the entries matching `only`. */
function zipText(zip: Buffer, only?: string): string {
  const dir = tempDir('forge-secrets-zip-');
  const file = path.join(dir, 'a.zip');
  fs.writeFileSync(file, zip);
  const contents = execFileSync('unzip', ['-p', file, ...(only ? [only] : [])], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return (only ? '' : execFileSync('unzip', ['-Z1', file]).toString()) + contents.toString();
}

function readTree(dir: string): string {
  let text = '';
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) text += fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
  }
  return text;
}

describe('secrets', { timeout: 90_000 }, () => {
  it('daemon env and project .env canaries never reach logs, /ws, records, artifacts or errors', async () => {
    const home = tempDir('forge-secrets-home-');
    const cwd = tempDir('forge-secrets-cwd-');
    const daemon = spawnDaemon(['run', '--port', '0'], {
      home,
      cwd,
      env: { ...userPackageCaches(), ...DAEMON_CANARIES, FORGE_LOG_LEVEL: 'debug' },
    });
    const url = await daemon.url;

    // Debug mode records each command's environment names in the build record and log: names only.
    const put = await fetch(`${url}/api/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ debugMode: true }),
    });
    expect(put.status).toBeLessThan(300);

    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`);
    const messages: string[] = [];
    ws.on('message', (data) => messages.push(data.toString()));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });

    const form = new FormData();
    form.set('file', new Blob([fs.readFileSync(makeZip('leaky.zip', LEAKY_PROJECT))]), 'leaky.zip');
    const uploaded = (await (
      await fetch(`${url}/api/upload`, { method: 'POST', body: form })
    ).json()) as UploadResult;
    const buildId = uploaded.buildId!;
    await expect
      .poll(() => messages.some((m) => m.includes('"build-finished"') && m.includes(buildId)), {
        timeout: 60_000,
      })
      .toBe(true);
    const build = (await (await fetch(`${url}/api/builds/${buildId}`)).json()) as Build;
    expect(build.status).toBe('succeeded');

    const logs = await (await fetch(`${url}/api/builds/${buildId}/logs?limit=10000`)).text();
    expect(logs).toContain('CI=true'); // the dump was logged, so the log was really checked
    const artifact = Buffer.from(
      await (await fetch(`${url}/api/projects/${build.projectName}/artifact`)).arrayBuffer(),
    );
    const artifactText = zipText(artifact);
    // The build saw only the allow-list: the dump is complete (from the output artifact) and canary-free.
    const dump = zipText(artifact, '*env.txt');
    expect(dump).toMatch(/^PATH=/m);
    expect(dump).toMatch(/^CI=true$/m);
    expect(leaksIn(dump, daemonValues)).toEqual([]);
    expect(dump).not.toMatch(/^(FORGE_|AWS_|GITHUB_|NPM_TOKEN)/m);
    expect(dump).not.toContain(PROJECT_CANARY);

    expect(artifactText).toContain('CI=true');
    const source = zipText(
      Buffer.from(await (await fetch(`${url}/api/projects/${build.projectName}/download`)).arrayBuffer()),
    );
    // Error bodies: a missing build, a bad body, an unknown file, a refused upload.
    const errors = await Promise.all([
      fetch(`${url}/api/builds/nope`).then((r) => r.text()),
      fetch(`${url}/api/settings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"debugMode":',
      }).then((r) => r.text()),
      fetch(`${url}/api/files/content?project=${build.projectName}&path=../../etc/passwd`).then((r) =>
        r.text(),
      ),
      fetch(`${url}/api/upload`, {
        method: 'POST',
        body: (() => {
          const f = new FormData();
          f.set('file', new Blob(['not a zip']), 'x.zip');
          return f;
        })(),
      }).then((r) => r.text()),
    ]);
    ws.terminate();
    daemon.child.kill('SIGTERM');
    await daemon.exited;

    const everywhere = {
      'daemon stdout': daemon.stdout(),
      'daemon stderr': daemon.stderr(),
      'FORGE_HOME/logs': fs.existsSync(path.join(home, 'logs')) ? readTree(path.join(home, 'logs')) : '',
      '/ws messages': messages.join('\n'),
      'build record': JSON.stringify(build),
      'build logs': logs,
      'output artifact': artifactText,
      'error bodies': errors.join('\n'),
    };
    expect(messages.length).toBeGreaterThan(5);
    for (const [where, text] of Object.entries(everywhere)) {
      expect({ where, leaks: leaksIn(text, [...daemonValues, PROJECT_CANARY]) }).toEqual({
        where,
        leaks: [],
      });
    }
    // The project download is the user's own upload: their .env is in it, the daemon's secrets are not.
    expect(source).toContain(PROJECT_CANARY);
    expect(leaksIn(source, daemonValues)).toEqual([]);
  });
});
