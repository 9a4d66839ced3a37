// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
