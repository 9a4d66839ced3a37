import { describe, expect, it } from 'vitest';
import { probableCauseOf } from '../../features/builds/pipeline.ts';
import { DecisionLog } from './decisions.ts';
import { detectBlueprint } from './detect-blueprint.ts';
import { detectNodeRequirement, satisfiesNode } from './node-version.ts';
import { openProject } from './project-files.ts';
import { decision, useProjects, type ProjectTree } from './test-project.ts';

const makeProject = useProjects();

const requirement = async (tree: ProjectTree, current: string) => {
  const log = new DecisionLog();
  const node = await detectNodeRequirement(await openProject(await makeProject(tree)), log, { current });
  return { node, decisions: log.list };
};

const pkg = (engines?: object) => ({
  name: 'app',
  scripts: { build: 'node build.js' },
  ...(engines ? { engines } : {}),
});

describe('satisfiesNode', () => {
  it.each<[string, string, boolean | null]>([
    ['>=22', '20.20.2', false],
    ['>=20.19 <21 || >=22.12', '20.20.2', true],
    ['^18.17.0 || ^20', '20.20.2', true],
    ['20', '20.20.2', true],
    ['v20.11.1', '20.20.2', false],
    ['18.17', '20.20.2', false],
    ['22.x', '22.3.0', true],
    ['lts/*', '20.20.2', null],
    ['lts/iron', '20.20.2', null],
    ['node', '20.20.2', null],
    ['stable', '20.20.2', null],
    ['not a version', '20.20.2', null],
  ])('%s against Node %s → %s', (wanted, current, expected) => {
    expect(satisfiesNode(wanted, current)).toBe(expected);
  });
});

describe('the node requirement in the plan', () => {
  it('reads engines.node and says up front when this machine does not satisfy it', async () => {
    const { node, decisions } = await requirement({ 'package.json': pkg({ node: '>=22' }) }, '20.20.2');
    expect(node).toEqual({ wanted: '>=22', file: 'package.json', current: '20.20.2', satisfied: false });
    const [d] = decisions;
    expect(d).toMatchObject({ field: 'node', file: 'package.json', value: '>=22 (this machine: 20.20.2)' });
    expect(d!.rule).toMatch(/^Not satisfied: engines\.node in package\.json asks for Node >=22/);
  });

  it('reads .nvmrc (a leading v, comments and blank lines aside) and .node-version', async () => {
    const nvmrc = await requirement({ '.nvmrc': '# pinned\n\nv20.11.1\n' }, '20.11.1');
    expect(nvmrc.node).toMatchObject({ wanted: 'v20.11.1', file: '.nvmrc', satisfied: true });
    const nodeVersion = await requirement({ '.node-version': '18.17.0\n' }, '20.20.2');
    expect(nodeVersion.node).toMatchObject({ wanted: '18.17.0', file: '.node-version', satisfied: false });
  });

  it('takes engines.node first and names the other files', async () => {
    const { node, decisions } = await requirement(
      { 'package.json': pkg({ node: '>=20' }), '.nvmrc': '18\n', '.node-version': '22' },
      '20.20.2',
    );
    expect(node).toMatchObject({ wanted: '>=20', file: 'package.json', satisfied: true });
    expect(decisions[0]!.rule).toContain(
      '.nvmrc says 18, .node-version says 22; engines.node in package.json comes first',
    );
  });

  it('cannot check an nvm alias: satisfied is null, and the decision says why', async () => {
    const { node, decisions } = await requirement({ '.nvmrc': 'lts/*\n' }, '20.20.2');
    expect(node).toMatchObject({ wanted: 'lts/*', satisfied: null });
    expect(decisions[0]!.rule).toContain('not a version range Forge can check');
  });

  it("looks in the app's folder first, then at the repository root", async () => {
    const log = new DecisionLog();
    const files = await openProject(
      await makeProject({
        '.nvmrc': '18\n',
        'apps/web/package.json': pkg({ node: '>=20' }),
        'apps/api/package.json': pkg(),
      }),
    );
    const web = await detectNodeRequirement(files, log, { folders: ['apps/web', '.'], current: '20.20.2' });
    expect(web).toMatchObject({ wanted: '>=20', file: 'apps/web/package.json', satisfied: true });
    expect(log.list[0]!.rule).toContain('.nvmrc says 18; engines.node in apps/web/package.json comes first');
    const api = await detectNodeRequirement(files, log, { folders: ['apps/api', '.'], current: '20.20.2' });
    expect(api).toMatchObject({ wanted: '18', file: '.nvmrc', satisfied: false });
  });

  it('is null, with no decision, when the project says nothing', async () => {
    const { node, decisions } = await requirement({ 'package.json': pkg() }, '20.20.2');
    expect(node).toBeNull();
    expect(decisions).toEqual([]);
  });

  it('reaches the plan with this machine’s Node, and a failure then names it as the probable cause', async () => {
    const bp = await detectBlueprint(await makeProject({ 'package.json': pkg({ node: '>=99' }) }));
    expect(bp.node).toEqual({
      wanted: '>=99',
      file: 'package.json',
      current: process.versions.node,
      satisfied: false,
    });
    expect(decision(bp, 'node').rule).toMatch(/^Not satisfied/);
    expect(probableCauseOf(bp, 'BUILD_FAILED')).toContain('the project asks for Node >=99 (package.json)');
    expect(probableCauseOf({ ...bp, node: { ...bp.node!, satisfied: true } }, 'BUILD_FAILED')).toBeNull();
  });
});
