import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Diagnosis, type PackageManager } from '@forge/shared';
import { makeBlueprint } from '@forge/testing';
import { makeTempDir } from '../../../test/support/temp-files.ts';
import { caseNamed, PROJECT_PLACEHOLDER } from './fixtures/cases.ts';
import { diagnose } from './index.ts';

/**
 * An install that needs a host other than the npm registry is NETWORK_AT_BUILD naming that host,
 * whatever the package manager: the fixtures are what npm 11, pnpm 10, Yarn 1.22, Yarn 4 and bun 1
 * printed here (no route to GitHub, nothing listening on 127.0.0.1:9; see fixtures/capture.ts).
 */
const FIXTURES = path.join(import.meta.dirname, 'fixtures');

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-diagnose-network-'));
});
afterEach(() => cleanup());

async function diagnoseInstall(name: string, packageManager: PackageManager) {
  for (const [file, text] of Object.entries(caseNamed(name).files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  const text = await readFile(path.join(FIXTURES, `${name}.txt`), 'utf8');
  const lines = text.split(PROJECT_PLACEHOLDER).join(dir).replace(/\n$/, '').split('\n');
  const d = await diagnose({
    step: 'install',
    status: 'failed',
    error: { code: 'INSTALL_FAILED', message: `${packageManager} install exited with code 1` },
    lines,
    blueprint: makeBlueprint({ packageManager, install: [packageManager, 'install'] }),
    projectDir: dir,
  });
  expect(Diagnosis.parse(d)).toEqual(d);
  return d;
}

describe('NETWORK_AT_BUILD at install, for every package manager', () => {
  it.each([
    ['npm-git-dependency', 'npm', 'github.com'],
    ['npm-github-shorthand', 'npm', 'github.com'],
    ['npm-codeload-tarball', 'npm', 'codeload.github.com'],
    ['npm-tarball-refused', 'npm', '127.0.0.1:9'],
    ['pnpm-git-dependency', 'pnpm', 'github.com'],
    ['pnpm-tarball-refused', 'pnpm', '127.0.0.1:9'],
    ['yarn1-git-dependency', 'yarn', 'github.com'],
    ['yarn1-tarball-refused', 'yarn', '127.0.0.1:9'],
    ['yarn-berry-git-dependency', 'yarn', 'github.com'],
    ['yarn-berry-tarball-refused', 'yarn', '127.0.0.1:9'],
    ['bun-git-dependency', 'bun', 'github.com'],
    ['bun-tarball-refused', 'bun', '127.0.0.1:9'],
  ] as const)('%s names %s', async (name, pm, host) => {
    const d = await diagnoseInstall(name, pm);
    expect(d.code).toBe('NETWORK_AT_BUILD');
    expect(d.subjects?.[0]).toBe(host);
    expect(d.summary).toBe(
      `The install needed the network and could not reach ${d.subjects!.join(' and ')}.`,
    );
    expect(d.suggestion).toContain(`Builds reach only the npm registry, not ${host}`);
    expect(d.repair).toBeUndefined();
  });
});

describe('NETWORK_AT_BUILD for a download that timed out', () => {
  it('says the host answered too slowly, not that it could not be reached', async () => {
    const d = await diagnoseInstall('yarn1-download-timeout', 'yarn');
    expect(d).toMatchObject({ code: 'NETWORK_AT_BUILD', subjects: ['127.0.0.1:45831'] });
    expect(d.summary).toBe(
      "The install gave up waiting for 127.0.0.1:45831: http://127.0.0.1:45831/is-odd/-/is-odd-3.0.1.tgz sent nothing for the package manager's network timeout.",
    );
    expect(d.suggestion).toMatch(
      /answered too slowly .*build again\. If it keeps happening, give the package manager longer/,
    );
  });
});
