import fs from 'node:fs';
import path from 'node:path';
import { makeBlueprint } from '@forge/testing';
import type { Blueprint, Build, BuildStep, Repair } from '@forge/shared';
import type { AppServices } from '../../src/app.ts';
import { createRepairJournal } from '../../src/capabilities/repair/journal.ts';
import type { Store } from '../../src/store/store.ts';

/** The fixture's clock: every record is dated from here, and the brain asked a little later. */
export const FIXTURE_T0 = Date.parse('2026-03-02T09:00:00Z');
export const FIXTURE_NOW = FIXTURE_T0 + 3 * 3_600_000;

const iso = (minutes: number): string => new Date(FIXTURE_T0 + minutes * 60_000).toISOString();

/** The ids the fixture's builds got, by a name the question set uses. */
export interface FixtureIds {
  shopPass: string;
  shopOld: string;
  brokenAll: string;
  brokenDepFailed: string;
  brokenDepFixed: string;
  apiTests: string;
  repairId: string;
}

function write(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
}

const pkg = (json: object): string => `${JSON.stringify(json, null, 2)}\n`;

const step = (
  name: BuildStep['name'],
  botName: string,
  status: BuildStep['status'],
  at: number,
  durationMs: number,
  detail: string | null = null,
  attempt = 1,
): BuildStep => ({ name, botName, status, startedAt: iso(at), durationMs, detail, attempt, debug: null });

const VITE_DECISIONS: Blueprint['decisions'] = [
  { field: 'framework', value: 'vite', file: 'package.json', rule: 'devDependencies.vite present' },
  { field: 'packageManager', value: 'pnpm', file: 'pnpm-lock.yaml', rule: 'pnpm-lock.yaml present' },
  {
    field: 'outputDir',
    value: 'dist',
    file: 'vite.config.ts',
    rule: 'build.outDir of vite.config.ts, else dist',
  },
  { field: 'test', value: 'pnpm run test', file: 'package.json', rule: 'scripts.test present' },
];

/**
 * A workspace of five projects as Forge keeps them after real use, written through the daemon's own
 * store (build records, logs, the repair journal) and project folders:
 * - shop: a Vite app that builds and whose tests pass, an older build that failed on a case mismatch;
 * - broken-all: a build that fails on a type error (src/total.ts:3:7), no repair possible;
 * - broken-dep: a build that failed on an undeclared package, repaired (r_…), then built green;
 * - api-server: an Express server that builds but whose tests fail;
 * - notes: uploaded, never built.
 */
export function seedWorkspace(services: AppServices, store: Store): FixtureIds {
  const { repo, layout } = services;
  const journal = createRepairJournal(store);
  const save = (name: string, minutes: number, patch: Partial<Build>): Build => {
    repo.touchProject(name, new Date(FIXTURE_T0 + minutes * 60_000));
    const created = repo.createBuild(name, { noCache: false, now: new Date(FIXTURE_T0 + minutes * 60_000) });
    const build: Build = { ...created, ...patch };
    repo.save(build);
    return build;
  };
  const logs = (b: Build, lines: Array<[string, 'info' | 'warn' | 'error', string]>): void => {
    repo.appendLogs(
      b.id,
      lines.map(([bot, level, message], i) => ({ seq: i + 1, ts: iso(0), level, botName: bot, message })),
    );
    repo.save({ ...repo.get(b.id)!, logCount: lines.length });
  };

  // shop ────────────────────────────────────────────────────────────────────────────────────────
  write(layout.projectDir('shop'), {
    'package.json': pkg({
      name: 'shop',
      private: true,
      scripts: { dev: 'vite', build: 'tsc -b && vite build', test: 'vitest run', preview: 'vite preview' },
      dependencies: { react: '^18.3.1', 'react-dom': '^18.3.1', 'date-fns': '^3.6.0' },
      devDependencies: { vite: '^5.4.0', vitest: '^2.1.0', typescript: '^5.6.0' },
    }),
    'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
    'index.html': '<div id="root"></div>\n<script type="module" src="/src/main.tsx"></script>\n',
    'vite.config.ts':
      "import { defineConfig } from 'vite';\nexport default defineConfig({ build: { outDir: 'dist' } });\n",
    'src/main.tsx':
      "import { createRoot } from 'react-dom/client';\nimport { App } from './App';\ncreateRoot(document.getElementById('root')!).render(<App />);\n",
    'src/App.tsx':
      "import { LoginForm } from './components/LoginForm';\nimport { CartSummary } from './components/CartSummary';\n\nexport function App() {\n  return (\n    <main>\n      <LoginForm />\n      <CartSummary />\n    </main>\n  );\n}\n",
    'src/components/LoginForm.tsx':
      "import { useState } from 'react';\nimport { handleLogin } from '../auth/login';\n\nexport function LoginForm() {\n  const [email, setEmail] = useState('');\n  const [password, setPassword] = useState('');\n  return (\n    <form onSubmit={(e) => { e.preventDefault(); void handleLogin(email, password); }}>\n      <input type=\"email\" value={email} onChange={(e) => setEmail(e.target.value)} />\n      <input type=\"password\" value={password} onChange={(e) => setPassword(e.target.value)} />\n      <button type=\"submit\">Sign in</button>\n    </form>\n  );\n}\n",
    'src/components/CartSummary.tsx':
      "import { formatPrice } from '../utils/format';\n\nexport function CartSummary() {\n  return <p>Total: {formatPrice(42)}</p>;\n}\n",
    'src/auth/login.ts':
      "/** Sends the credentials to the API and keeps the session token. */\nexport async function handleLogin(email: string, password: string): Promise<void> {\n  const res = await fetch('/api/login', { method: 'POST', body: JSON.stringify({ email, password }) });\n  if (!res.ok) throw new Error('Login failed');\n  sessionStorage.setItem('token', (await res.json()).token);\n}\n",
    'src/utils/format.ts':
      "import { format } from 'date-fns';\n\nexport const formatPrice = (cents: number): string => `$${(cents / 100).toFixed(2)}`;\nexport const formatDay = (d: Date): string => format(d, 'yyyy-MM-dd');\n",
    'src/utils/format.test.ts':
      "import { expect, it } from 'vitest';\nimport { formatPrice } from './format';\nit('formats cents', () => expect(formatPrice(150)).toBe('$1.50'));\n",
    'README.md': '# shop\n\nA small storefront.\n',
  });
  const shopPlan = makeBlueprint({
    packageManager: 'pnpm',
    install: ['pnpm', 'install', '--frozen-lockfile'],
    build: ['pnpm', 'run', 'build'],
    test: ['pnpm', 'run', 'test'],
    decisions: VITE_DECISIONS,
  });
  const shopOld = save('shop', 0, {
    status: 'failed',
    stage: 'build-failed',
    endedAt: iso(2),
    durationMs: 95_000,
    blueprint: shopPlan,
    steps: [
      step('extract', 'ExtractBot', 'succeeded', 0, 300),
      step('detect', 'BlueprintBot', 'succeeded', 0, 40),
      step('install', 'DependencyBot', 'succeeded', 0, 41_000),
      step('build', 'BuildBot', 'failed', 1, 52_000),
    ],
    error: { code: 'BUILD_FAILED', message: 'pnpm run build exited with code 1' },
    diagnosis: {
      code: 'IMPORT_CASE_MISMATCH',
      summary: 'src/App.tsx imports ./components/loginForm, but the file is src/components/LoginForm.tsx.',
      file: 'src/App.tsx',
      line: 1,
      column: 27,
      suggestion: 'Write the import with the file name as it is (RepairBot can: forge fix).',
      repair: 'FIX_IMPORT_CASE',
    },
  });
  const shopPass = save('shop', 30, {
    status: 'succeeded',
    stage: 'integration-available',
    endedAt: iso(32),
    durationMs: 88_000,
    blueprint: shopPlan,
    steps: [
      step('extract', 'ExtractBot', 'succeeded', 30, 280),
      step('detect', 'BlueprintBot', 'succeeded', 30, 35),
      step(
        'install',
        'DependencyBot',
        'succeeded',
        30,
        12_400,
        'pnpm install: reused node_modules (lockfile unchanged)',
      ),
      step('build', 'BuildBot', 'succeeded', 31, 61_000),
      step('test', 'TestBot', 'succeeded', 32, 6_300),
      step('lint', 'LintBot', 'skipped', 32, 0, 'no lint script'),
    ],
    test: {
      ran: true,
      passed: true,
      command: 'pnpm run test',
      durationMs: 6_300,
      outputTail:
        ' ✓ src/utils/format.test.ts (1 test) 3ms\n\n Test Files  1 passed (1)\n      Tests  1 passed (1)\n',
    },
    previewUrl: 'http://127.0.0.1:4100/',
  });
  logs(shopPass, [
    ['ExtractBot', 'info', 'extracted 11 files'],
    ['BlueprintBot', 'info', 'planned a vite site (pnpm)'],
    ['DependencyBot', 'info', 'pnpm install --frozen-lockfile'],
    ['BuildBot', 'info', 'vite v5.4.0 building for production...'],
    ['BuildBot', 'info', '✓ 32 modules transformed.'],
    ['BuildBot', 'info', 'dist/index.html  0.46 kB'],
    ['TestBot', 'info', 'Tests  1 passed (1)'],
  ]);

  // broken-all ──────────────────────────────────────────────────────────────────────────────────
  write(layout.projectDir('broken-all'), {
    'package.json': pkg({
      name: 'broken-all',
      scripts: { build: 'tsc -p .' },
      devDependencies: { typescript: '^5.6.0' },
    }),
    'package-lock.json': '{ "lockfileVersion": 3 }\n',
    'tsconfig.json': '{ "compilerOptions": { "strict": true, "outDir": "dist" } }\n',
    'src/total.ts':
      "export function total(prices: number[]): number {\n  let sum = 0;\n  const label: number = 'total';\n  for (const p of prices) sum += p;\n  return sum;\n}\n",
    'src/index.ts': "import { total } from './total';\nconsole.log(total([1, 2, 3]));\n",
  });
  const brokenAll = save('broken-all', 60, {
    status: 'failed',
    stage: 'build-failed',
    endedAt: iso(61),
    durationMs: 21_000,
    blueprint: makeBlueprint({
      kind: 'static-build',
      framework: 'typescript',
      outputDir: 'dist',
      decisions: [
        {
          field: 'framework',
          value: 'typescript',
          file: 'tsconfig.json',
          rule: 'tsconfig.json with outDir, no bundler',
        },
        {
          field: 'packageManager',
          value: 'npm',
          file: 'package-lock.json',
          rule: 'package-lock.json present',
        },
      ],
    }),
    steps: [
      step('extract', 'ExtractBot', 'succeeded', 60, 120),
      step('detect', 'BlueprintBot', 'succeeded', 60, 20),
      step('install', 'DependencyBot', 'succeeded', 60, 9_000),
      step('build', 'BuildBot', 'failed', 60, 11_000),
      step('diagnose', 'ScanBot', 'succeeded', 61, 150),
    ],
    error: {
      code: 'BUILD_FAILED',
      message: 'npm run build exited with code 2',
      firstLine: "src/total.ts(3,9): error TS2322: Type 'string' is not assignable to type 'number'.",
      location: { file: 'src/total.ts', line: 3, column: 9 },
    },
    diagnosis: {
      code: 'TYPE_ERROR',
      summary: 'src/total.ts:3 assigns a string to label, declared as number (TS2322).',
      file: 'src/total.ts',
      line: 3,
      column: 9,
      suggestion: 'Change the value or the declared type; RepairBot does not change code it cannot prove.',
    },
  });
  logs(brokenAll, [
    ['DependencyBot', 'info', 'npm ci'],
    ['BuildBot', 'info', '> tsc -p .'],
    [
      'BuildBot',
      'error',
      "src/total.ts(3,9): error TS2322: Type 'string' is not assignable to type 'number'.",
    ],
    ['BuildBot', 'error', 'npm run build exited with code 2'],
    ['ScanBot', 'info', 'diagnosed TYPE_ERROR at src/total.ts:3:9'],
  ]);

  // broken-dep ──────────────────────────────────────────────────────────────────────────────────
  write(layout.projectDir('broken-dep'), {
    'package.json': pkg({
      name: 'broken-dep',
      scripts: { build: 'vite build' },
      dependencies: { 'canvas-confetti': '^1.9.3' },
      devDependencies: { vite: '^5.4.0' },
    }),
    'package-lock.json': '{ "lockfileVersion": 3 }\n',
    'index.html': '<script type="module" src="/src/party.js"></script>\n',
    'src/party.js':
      "import confetti from 'canvas-confetti';\n\nexport function celebrate() {\n  confetti({ particleCount: 120 });\n}\n",
  });
  const depPlan = makeBlueprint({
    decisions: [
      { field: 'framework', value: 'vite', file: 'package.json', rule: 'devDependencies.vite present' },
      { field: 'packageManager', value: 'npm', file: 'package-lock.json', rule: 'package-lock.json present' },
    ],
  });
  const brokenDepFailed = save('broken-dep', 90, {
    status: 'failed',
    stage: 'build-failed',
    endedAt: iso(91),
    durationMs: 30_000,
    blueprint: depPlan,
    steps: [
      step('install', 'DependencyBot', 'succeeded', 90, 8_000),
      step('build', 'BuildBot', 'failed', 90, 4_000),
      step('diagnose', 'ScanBot', 'succeeded', 91, 90),
    ],
    error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
    diagnosis: {
      code: 'MISSING_PACKAGE',
      summary: 'src/party.js imports canvas-confetti, which package.json does not declare.',
      file: 'src/party.js',
      line: 1,
      column: 22,
      suggestion: 'Add it to package.json (RepairBot can: forge fix).',
      subjects: ['canvas-confetti'],
      repair: 'ADD_MISSING_PACKAGES',
    },
  });
  const repair: Omit<Repair, 'id'> = {
    code: 'ADD_MISSING_PACKAGES',
    summary: 'RepairBot added canvas-confetti@^1.9.3 to package.json',
    files: ['package.json'],
    status: 'applied',
    diff: '--- a/package.json\n+++ b/package.json\n@@\n+    "canvas-confetti": "^1.9.3",\n',
    at: iso(92),
    buildId: brokenDepFailed.id,
  };
  const entry = journal.add({ projectName: 'broken-dep', backupDir: null, repair });
  repo.save({ ...repo.get(brokenDepFailed.id)!, repairs: [entry.repair] });
  const brokenDepFixed = save('broken-dep', 93, {
    status: 'succeeded',
    stage: 'integration-available',
    endedAt: iso(94),
    durationMs: 40_000,
    blueprint: depPlan,
    steps: [
      step('repair', 'RepairBot', 'succeeded', 93, 2_000, 'added canvas-confetti@^1.9.3'),
      step('install', 'DependencyBot', 'succeeded', 93, 9_500),
      step('build', 'BuildBot', 'succeeded', 93, 5_000, null, 2),
    ],
  });

  // api-server ──────────────────────────────────────────────────────────────────────────────────
  write(layout.projectDir('api-server'), {
    'package.json': pkg({
      name: 'api-server',
      type: 'module',
      scripts: { start: 'node src/server.js', test: 'node --test' },
      dependencies: { express: '^4.21.0', zod: '^3.23.0' },
    }),
    'package-lock.json': '{ "lockfileVersion": 3 }\n',
    'src/server.js':
      "import express from 'express';\nimport { users } from './routes/users.js';\n\nconst app = express();\napp.use(express.json());\napp.use('/users', users);\napp.listen(process.env.PORT ?? 3000);\n",
    'src/routes/users.js':
      "import { Router } from 'express';\nimport { z } from 'zod';\n\nexport const users = Router();\nconst NewUser = z.object({ email: z.string().email() });\n\nusers.get('/', (_req, res) => res.status(500).json([]));\nusers.post('/', (req, res) => {\n  const body = NewUser.parse(req.body);\n  res.status(201).json(body);\n});\n",
    'test/users.test.js':
      "import { test } from 'node:test';\nimport assert from 'node:assert';\n\ntest('GET /users returns 200', async () => {\n  assert.equal(500, 200);\n});\n",
  });
  const apiTests = save('api-server', 120, {
    status: 'succeeded',
    stage: 'integration-available',
    endedAt: iso(122),
    durationMs: 70_000,
    blueprint: makeBlueprint({
      kind: 'server',
      framework: 'express',
      build: null,
      test: ['npm', 'test'],
      start: ['npm', 'start'],
      outputDir: null,
      decisions: [
        {
          field: 'kind',
          value: 'server',
          file: 'package.json',
          rule: 'dependencies.express and scripts.start, no build script',
        },
        { field: 'start', value: 'npm start', file: 'package.json', rule: 'scripts.start present' },
      ],
    }),
    steps: [
      step('install', 'DependencyBot', 'succeeded', 120, 15_000),
      step('test', 'TestBot', 'failed', 121, 2_100),
      step('preview', 'PreviewBot', 'succeeded', 122, 900),
    ],
    test: {
      ran: true,
      passed: false,
      command: 'npm test',
      durationMs: 2_100,
      outputTail:
        "not ok 1 - GET /users returns 200\n  ---\n  error: 'Expected values to be strictly equal:\\n\\n500 !== 200\\n'\n  location: 'test/users.test.js:4:1'\n  ...\n# tests 1\n# pass 0\n# fail 1\n",
    },
    previewUrl: 'http://127.0.0.1:4101/',
  });

  // notes ───────────────────────────────────────────────────────────────────────────────────────
  write(layout.projectDir('notes'), {
    'index.html': '<h1>Notes</h1>\n<script src="app.js"></script>\n',
    'app.js': "document.querySelector('h1').textContent = 'My notes';\n",
  });
  repo.touchProject('notes', new Date(FIXTURE_T0 + 150 * 60_000));

  return {
    shopPass: shopPass.id,
    shopOld: shopOld.id,
    brokenAll: brokenAll.id,
    brokenDepFailed: brokenDepFailed.id,
    brokenDepFixed: brokenDepFixed.id,
    apiTests: apiTests.id,
    repairId: entry.repair.id,
  };
}
