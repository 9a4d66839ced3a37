import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The web's first paint loads no zod (docs/performance.md): eslint.config.js finds the modules the
 * entries import statically and refuses, in those only, a run-time import of @forge/shared's root or
 * of zod. Planted imports in real first-paint files must be refused; the same in a lazy screen, or
 * as a type or an `import()`, must pass.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });
const WEB = 'packages/web/src';
const RULES = ['@typescript-eslint/no-restricted-imports', '@typescript-eslint/no-import-type-side-effects'];

async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, WEB, file) });
  return result!.messages.filter((m) => RULES.includes(m.ruleId ?? '')).map((m) => m.message);
}

async function onFirstPaint(file: string): Promise<boolean> {
  const config = (await eslint.calculateConfigForFile(path.join(root, WEB, file))) as {
    rules?: Record<string, unknown>;
  };
  return config.rules?.['@typescript-eslint/no-restricted-imports'] !== undefined;
}

describe("the web's first paint imports only @forge/shared/schema-free", () => {
  // The first question loads the config, which follows the entries' imports through the web's
  // source tree: seconds of parsing on a busy machine, paid once here rather than inside the first
  // test's 5 s.
  beforeAll(() => onFirstPaint('main.tsx'), 120_000);

  it.each([
    ['main.tsx', 'an entry'],
    ['boot.ts', 'an entry'],
    ['app.tsx', 'first paint'],
    ['lib/api.ts', 'first paint'],
    ['lib/socket.tsx', 'first paint'],
    ['features/dashboard/components/dashboard-page.tsx', 'first paint'],
    ['features/dashboard/components/left-column.tsx', 'first paint'],
    // lib/protocol.ts imports only its type, and loads it with import().
    ['lib/protocol-schemas.ts', 'lazy'],
    ['features/code-generator/components/code-generator-page.tsx', 'lazy'],
    ['features/login/login-request.ts', 'lazy'],
    ['features/editor/components/code-area.tsx', 'lazy'],
    ['test/fake-daemon.ts', 'a test'],
    ['app.test.tsx', 'a test'],
  ])('counts %s as %s', async (file, kind) => {
    expect(await onFirstPaint(file)).toBe(kind === 'an entry' || kind === 'first paint');
  });

  it.each([
    ['lib/api.ts', "import { routes } from '@forge/shared';\nexport const r = routes;\n"],
    ['main.tsx', "import { z } from 'zod';\nexport const s = z.string();\n"],
    ['boot.ts', "import * as core from 'zod/v4/core';\nexport const c = core;\n"],
    ['app.tsx', "export { routes } from '@forge/shared';\n"],
    ['lib/socket.tsx', "export * from '@forge/shared';\n"],
    // Kept as `import '@forge/shared'` under verbatimModuleSyntax: the whole root would load.
    ['lib/protocol.ts', "import { type Settings } from '@forge/shared';\nexport type S = Settings;\n"],
  ])('refuses in %s: %s', async (file, code) => {
    const messages = await refusals(file, code);
    expect(messages).toHaveLength(1);
  });

  it('says where the schemas come from instead', async () => {
    const [message] = await refusals(
      'main.tsx',
      "import { routes } from '@forge/shared';\nexport { routes };\n",
    );
    expect(message).toContain('@forge/shared/schema-free');
  });

  it.each([
    ['lib/api.ts', "import type { Settings } from '@forge/shared';\nexport type S = Settings;\n"],
    ['lib/api.ts', "export type { Settings } from '@forge/shared';\n"],
    [
      'main.tsx',
      "import { DEFAULT_PORT } from '@forge/shared/schema-free';\nexport const p = DEFAULT_PORT;\n",
    ],
    ['app.tsx', "export const load = () => import('@forge/shared');\n"],
    [
      'features/code-generator/components/code-generator-page.tsx',
      "import { CODE_KINDS } from '@forge/shared';\nexport const k = CODE_KINDS;\n",
    ],
  ])('lets %s have: %s', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});
