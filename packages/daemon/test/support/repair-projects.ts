/** Helpers for RepairBot's tests (not shipped: nothing outside tests imports this file). */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { Blueprint } from '@forge/shared';
import { runCommand } from '../../src/capabilities/exec/index.ts';
import type { RepairTarget } from '../../src/capabilities/repair/types.ts';

/** Temp folders made by a test file, removed after each test. */
export function useTempDirs(): (prefix?: string) => Promise<string> {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  return async (prefix = 'forge-repair-') => {
    const dir = await mkdtemp(path.join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/** Writes `files` (relative path → text or bytes) under `dir`. */
export async function writeTree(dir: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** A plan as BlueprintBot would make it, with these fields changed. */
export function blueprint(over: Partial<Blueprint> = {}): Blueprint {
  return Blueprint.parse({
    kind: 'static-build',
    framework: 'vite',
    hasPackageJson: true,
    packageManager: 'npm',
    install: ['npm', 'ci', '--no-audit', '--no-fund'],
    build: ['npm', 'run', 'build'],
    test: null,
    start: null,
    outputDir: 'dist',
    env: {},
    timeoutMs: 600_000,
    decisions: [],
    ...over,
  });
}

/** The commands RepairBot runs, run for real (no sandbox: tests run where bubblewrap may be missing). */
export const runForReal: RepairTarget['run'] = (command) =>
  runCommand({
    argv: command.argv,
    cwd: command.cwd,
    ...(command.env ? { env: command.env } : {}),
    timeoutMs: command.timeoutMs ?? 60_000,
    onLine: (line) => command.onLine?.(line.text, line.stream),
    sandbox: false,
  });

/**
 * A tiny npm registry on loopback: each package in `packages` has the given versions (the last is
 * `latest`); anything else answers 404, as the real registry does. Closed after each test.
 */
export function useLocalRegistry(): (
  packages: Record<string, string[]>,
) => Promise<{ url: string; asked: string[] }> {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });
  return async (packages) => {
    const asked: string[] = [];
    const server = http.createServer((req, res) => {
      const name = decodeURIComponent((req.url ?? '/').slice(1));
      asked.push(name);
      const versions = packages[name];
      res.setHeader('content-type', 'application/json');
      if (!versions) {
        res.statusCode = 404;
        res.end('{"error":"Not found"}');
        return;
      }
      res.end(
        JSON.stringify({
          name,
          'dist-tags': { latest: versions.at(-1) },
          versions: Object.fromEntries(
            versions.map((v) => [
              v,
              { name, version: v, dist: { tarball: `http://127.0.0.1/${name}-${v}.tgz` } },
            ]),
          ),
        }),
      );
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, asked };
  };
}
