import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The daemon's layers (docs/architecture.md#the-daemons-folders) are held by eslint.config.js: a
 * planted file that imports the wrong way must be refused, one that imports downwards must pass.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

async function restricted(file: string, specifier: string): Promise<string[]> {
  const code = `import { thing } from '${specifier}';\nexport const used = thing;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(root, 'packages/daemon/src', file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('daemon layers', () => {
  it.each([
    ['capabilities/detect/planted.ts', '../../engine/build-run.ts', 'A capability'],
    ['capabilities/exec/planted.ts', '../../features/builds/service.ts', 'A capability'],
    ['capabilities/repair/planted.ts', '../../app.ts', 'A capability'],
    ['engine/steps/planted.ts', '../../features/preview/routes.ts', 'The engine'],
    ['engine/planted.ts', '../app.ts', 'The engine'],
    ['fs/planted.ts', '../capabilities/extract/index.ts', 'Infrastructure'],
    ['http/planted.ts', '../engine/build-run.ts', 'Infrastructure'],
    ['store/planted.ts', '../features/settings/repo.ts', 'Infrastructure'],
    ['home-layout.ts', './app.ts', 'Infrastructure'],
  ])('refuses %s importing %s', async (file, specifier, layer) => {
    const messages = await restricted(file, specifier);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(`${layer} imports downwards only`);
  });

  it.each([
    ['features/builds/planted.ts', '../../engine/build-run.ts'],
    ['engine/planted.ts', '../capabilities/detect/index.ts'],
    ['capabilities/detect/planted.ts', '../../fs/contain.ts'],
    ['capabilities/repair/planted.ts', '../diagnose/context.ts'],
  ])('lets %s import %s (downwards or sideways)', async (file, specifier) => {
    expect(await restricted(file, specifier)).toEqual([]);
  });
});
