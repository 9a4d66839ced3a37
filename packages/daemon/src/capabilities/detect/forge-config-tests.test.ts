import { describe, expect, it } from 'vitest';
import { BlueprintError } from './blueprint-error.ts';
import { detectBlueprint } from './detect-blueprint.ts';
import { useProjects, type ProjectTree } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();
const detect = async (tree: ProjectTree) => detectBlueprint(await makeProject(tree));
const app = { name: 'app', scripts: { build: 'node build.js', test: 'vitest' } };

describe('the forge config\'s "tests" setting and how test cases are read', () => {
  it('records the policy with its file, and how the cases are read with its rule', async () => {
    const bp = await detect({ 'package.json': app, '.forgerc.json': JSON.stringify({ tests: 'optional' }) });
    expect(bp.testsPolicy).toBe('optional');
    expect(bp.decisions).toContainEqual(
      expect.objectContaining({ field: 'testsPolicy', value: 'optional', file: '.forgerc.json' }),
    );
    expect(bp.testResults).toMatchObject({ runner: 'vitest', format: 'junit' });
    expect(bp.decisions).toContainEqual(
      expect.objectContaining({ field: 'testResults', value: 'junit (vitest)', file: 'package.json' }),
    );
  });

  it('has no policy of its own without the setting', async () => {
    const bp = await detect({ 'package.json': app });
    expect(bp.testsPolicy ?? null).toBeNull();
  });

  it("reads the cases of the forge config's own test command, as the command it is", async () => {
    const bp = await detect({
      'package.json': app,
      'forge.config.json': JSON.stringify({ test: 'node --test test/' }),
    });
    expect(bp.testResults).toMatchObject({ runner: 'node' });
    expect(bp.decisions).toContainEqual(
      expect.objectContaining({ field: 'testResults', file: 'forge.config.json' }),
    );
  });

  it('refuses a value that is no policy, naming the ones there are', async () => {
    const error = await detect({
      'package.json': app,
      '.forgerc.json': JSON.stringify({ tests: 'sometimes' }),
    }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(BlueprintError);
    expect((error as BlueprintError).message).toContain(
      'tests: expected one of "required", "optional", "skip"',
    );
  });
});
