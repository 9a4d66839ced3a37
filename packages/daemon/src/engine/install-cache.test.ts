import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Blueprint } from '@forge/shared';
import { installKey, isWorkspaceInstall } from './install-cache.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-install-key-'));
  dirs.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

const plan = (extra: Partial<Blueprint> = {}): Blueprint =>
  Blueprint.parse({
    kind: 'static-build',
    framework: 'vite',
    hasPackageJson: true,
    packageManager: 'pnpm',
    install: ['pnpm', 'install', '--frozen-lockfile'],
    build: ['pnpm', 'run', 'build'],
    test: null,
    start: null,
    outputDir: 'dist',
    env: {},
    timeoutMs: 60_000,
    toolchain: {
      tool: 'pnpm',
      package: 'pnpm',
      request: '10',
      version: '10.1.0',
      source: 'lockfile',
      file: 'pnpm-lock.yaml',
    },
    decisions: [],
    ...extra,
  });

describe('the install key', () => {
  it('changes with the exact provisioned version, the install folder and the lockfile', async () => {
    const dir = project({ 'package.json': '{"name":"a"}', 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n" });
    const base = await installKey(dir, plan());
    expect(await installKey(dir, plan())).toBe(base);
    const newer = plan({ toolchain: { ...plan().toolchain!, version: '10.2.0' } });
    expect(await installKey(dir, newer)).not.toBe(base);
    expect(await installKey(dir, plan({ installDir: 'apps/web' }))).not.toBe(base);
    fs.writeFileSync(path.join(dir, 'pnpm-lock.yaml'), "lockfileVersion: '9.0'\n# changed\n");
    expect(await installKey(dir, plan())).not.toBe(base);
  });
});

describe('a workspace install', () => {
  it('is one with workspaces, a pnpm workspace, or an app in a subfolder; never reuses a kept node_modules', async () => {
    expect(await isWorkspaceInstall(project({ 'package.json': '{"name":"a"}' }), plan())).toBe(false);
    expect(
      await isWorkspaceInstall(project({ 'package.json': '{"workspaces":["packages/*"]}' }), plan()),
    ).toBe(true);
    expect(
      await isWorkspaceInstall(
        project({ 'package.json': '{}', 'pnpm-workspace.yaml': 'packages: []\n' }),
        plan(),
      ),
    ).toBe(true);
    expect(await isWorkspaceInstall(project({ 'package.json': '{}' }), plan({ appDir: 'apps/web' }))).toBe(
      true,
    );
  });
});
