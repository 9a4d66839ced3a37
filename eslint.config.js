// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const noDaemon = {
  group: ['@forge/daemon', '@forge/daemon/*', '**/daemon/src/**'],
  message: 'Clients talk to the daemon only through @forge/shared (docs/architecture.md#packages).',
};
const clientOnlyShared = [
  noDaemon,
  {
    group: ['@forge/cli', '@forge/cli/*', '@forge/web', '@forge/web/*'],
    message: 'Import only @forge/shared of ours.',
  },
];

/** Test helpers (@forge/testing) are for tests, browser tests, benchmarks and the test package only. */
const noTesting = {
  group: ['@forge/testing', '@forge/testing/*'],
  message: 'Test helpers are for tests only.',
};
const TEST_FILES = [
  'packages/*/src/**/*.test.{ts,tsx}',
  'packages/*/test/**',
  'packages/*/e2e/**',
  'packages/*/bench/**',
  'packages/*/src/testing/**',
  'packages/*/src/test/**',
  'packages/testing/**',
];

const clientPatterns = [
  ...clientOnlyShared,
  { group: ['@forge/tui', '@forge/tui/*'], message: 'Import only @forge/shared of ours.' },
];
const cliPatterns = [
  noDaemon,
  { group: ['@forge/web', '@forge/web/*'], message: 'Import only @forge/shared (and @forge/tui lazily).' },
];
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

/**
 * The daemon's layers import downwards only (docs/architecture.md#the-daemons-folders): features over
 * the engine, the engine over capabilities, everything over infrastructure. A wrong-way import is an
 * error here; packages/daemon/test/layers.test.ts proves each block fires.
 */
const DAEMON = 'packages/daemon/src';
const INFRA = ['http', 'ws', 'store', 'fs', 'lifecycle', 'config', 'logging'];
const upward = (layer, names) => ({
  group: names.flatMap((name) => (name.endsWith('.ts') ? [`**/${name}`, `./${name}`] : [`**/${name}/**`])),
  message: `${layer} imports downwards only: not ${names.join(', ')} (docs/architecture.md#the-daemons-folders).`,
});
const daemonLayers = [
  {
    files: [`${DAEMON}/capabilities/**/*.ts`],
    rules: restrict([noTesting, upward('A capability', ['engine', 'features', 'app.ts', 'main.ts'])]),
  },
  {
    files: [`${DAEMON}/engine/**/*.ts`],
    rules: restrict([noTesting, upward('The engine', ['features', 'app.ts', 'main.ts'])]),
  },
  {
    files: [...INFRA.map((dir) => `${DAEMON}/${dir}/**/*.ts`), `${DAEMON}/home-layout.ts`],
    rules: restrict([
      noTesting,
      upward('Infrastructure', ['engine', 'capabilities', 'features', 'app.ts', 'main.ts']),
    ]),
  },
];

/**
 * The web's first paint (docs/performance.md): the modules the browser must load before the shell is
 * on screen are the entries (index.html's module script and the boot script, vite.config.ts) and
 * everything they import statically, found here by following the imports as the bundler does.
 * `import type` and `export type` are erased and `import()` starts a lazy chunk, so neither is
 * followed; `import { type X }` is, as verbatimModuleSyntax keeps it as an import. Computed from the
 * tree, so a screen that becomes static turns its imports into first-paint imports.
 */
const WEB = fileURLToPath(new URL('packages/web/', import.meta.url));
const WEB_ENTRIES = [
  ...[
    ...fs
      .readFileSync(path.join(WEB, 'index.html'), 'utf8')
      .matchAll(/<script type="module" src="\/([^"]+)"/g),
  ].map((m) => path.join(WEB, m[1])),
  path.join(WEB, 'src/boot.ts'),
];

/** The file a web import names (relative, or `@/` for src/), or null for a package or a non-script. */
function webModule(from, specifier) {
  const base = specifier.startsWith('@/')
    ? path.join(WEB, 'src', specifier.slice(2))
    : specifier.startsWith('.')
      ? path.resolve(path.dirname(from), specifier)
      : null;
  return base !== null && /\.tsx?$/.test(base) && fs.existsSync(base) ? base : null;
}

/** The imports of a module that load at run time, as written. */
function staticImports(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((node) => {
    const typeOnly = ts.isImportDeclaration(node)
      ? node.importClause?.isTypeOnly === true
      : ts.isExportDeclaration(node) && node.isTypeOnly;
    const specifier =
      ts.isImportDeclaration(node) || ts.isExportDeclaration(node) ? node.moduleSpecifier : undefined;
    return specifier && ts.isStringLiteral(specifier) && !typeOnly ? [specifier.text] : [];
  });
}

/** Every module the entries load statically, repository-relative (the form `files` globs take). */
function firstPaintModules(entries) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(file)) {
      const next = webModule(file, specifier);
      if (next !== null) visit(next);
    }
  };
  entries.forEach(visit);
  const repo = fileURLToPath(new URL('.', import.meta.url));
  return [...seen].map((file) => path.relative(repo, file).split(path.sep).join('/'));
}

const schemaFree =
  'The first paint imports @forge/shared/schema-free; the schemas load after it (lib/protocol.ts).';
/**
 * The first paint imports no zod: not @forge/shared's root (it evaluates every schema), not zod.
 * Types cost nothing (`import type`); a lazy chunk (a screen behind `import()`, lib/protocol-schemas.ts)
 * may import them, as it is not in this list.
 */
const webFirstPaint = {
  files: firstPaintModules(WEB_ENTRIES),
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: [
          { name: '@forge/shared', allowTypeImports: true, message: schemaFree },
          { name: 'zod', allowTypeImports: true, message: schemaFree },
        ],
        patterns: [{ group: ['zod/*'], allowTypeImports: true, message: schemaFree }],
      },
    ],
    // `import { type X } from '@forge/shared'` would still load the module (verbatimModuleSyntax).
    '@typescript-eslint/no-import-type-side-effects': 'error',
  },
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.tsbuild/**', 'coverage/**', 'artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['packages/shared/src/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'shared is isomorphic: no Node built-ins.' },
            { group: ['@forge/*'], message: 'shared imports no other package of ours.' },
          ],
          paths: [
            'fs',
            'path',
            'os',
            'child_process',
            'crypto',
            'http',
            'net',
            'url',
            'util',
            'events',
            'stream',
          ].map((name) => ({ name, message: 'shared is isomorphic: no Node built-ins.' })),
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'shared runs in Node too.' },
        { name: 'document', message: 'shared runs in Node too.' },
        { name: 'localStorage', message: 'shared runs in Node too.' },
        { name: 'process', message: 'shared runs in the browser too.' },
        { name: 'Buffer', message: 'shared runs in the browser too.' },
      ],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}', 'packages/tui/**/*.{ts,tsx}'],
    rules: restrict([...clientPatterns, noTesting]),
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  webFirstPaint,
  {
    files: ['packages/web/**/*.tsx', 'packages/tui/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  { files: ['packages/cli/**/*.ts'], rules: restrict([...cliPatterns, noTesting]) },
  { files: ['packages/daemon/**/*.ts'], rules: restrict([noTesting]) },
  ...daemonLayers,
  // Tests, browser tests, benchmarks and test support may use the shared test helpers.
  {
    files: TEST_FILES.filter((g) => g.startsWith('packages/*')),
    ignores: ['packages/cli/**', 'packages/daemon/**', 'packages/shared/**'],
    rules: restrict(clientPatterns),
  },
  { files: TEST_FILES.map((g) => g.replace('packages/*', 'packages/cli')), rules: restrict(cliPatterns) },
  {
    files: TEST_FILES.map((g) => g.replace('packages/*', 'packages/daemon')),
    rules: { 'no-restricted-imports': 'off' },
  },
);
