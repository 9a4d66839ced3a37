import type { FixtureIds } from './fixture.ts';

/** One question of the brain's benchmark, with what a right answer must hold. */
export interface BrainCase {
  question: string;
  /** The project selected in the web's header (or `--project`) when it is asked. */
  selected: string | null;
  /** The project the answer must be about; null: about none in particular. */
  about: string | null;
  /** Facts the answer must quote (the fixture's build ids are filled in). */
  facts: (ids: FixtureIds) => string[];
  /** `unknown`: the answer must say "I don't know" (and about no other project). */
  certainty: 'known' | 'unknown';
  /** Kept in the CI subset (test/brain-benchmark.test.ts). */
  ci?: boolean;
}

const k = (
  question: string,
  selected: string | null,
  about: string | null,
  facts: (ids: FixtureIds) => string[],
  ci = false,
): BrainCase => ({ question, selected, about, facts, certainty: 'known', ci });
const u = (
  question: string,
  selected: string | null,
  about: string | null,
  facts: (ids: FixtureIds) => string[] = () => [],
  ci = false,
): BrainCase => ({ question, selected, about, facts, certainty: 'unknown', ci });

/**
 * Questions a developer asks about the fixture workspace (bench/brain/fixture.ts). A question that
 * names a project is asked with ANOTHER project selected: the named one must win.
 */
export const BRAIN_CASES: BrainCase[] = [
  // The plan, with its evidence.
  k(
    'what is the plan of broken-all?',
    'shop',
    'broken-all',
    (i) => ['framework typescript', 'tsconfig.json', i.brokenAll],
    true,
  ),
  k(
    'what is the plan?',
    'shop',
    'shop',
    (i) => ['framework vite', 'package manager pnpm', 'pnpm-lock.yaml present', i.shopPass],
    true,
  ),
  k('why did Forge choose pnpm for shop?', 'api-server', 'shop', () => [
    'packageManager = pnpm',
    'pnpm-lock.yaml present',
  ]),
  k('which framework does api-server use?', 'shop', 'api-server', () => [
    'framework express',
    'a server app',
  ]),
  k('what output folder does shop build to?', null, 'shop', () => ['Output folder: dist', 'vite.config.ts']),
  u('what is the plan of notes?', 'shop', 'notes', () => ["notes's plan", 'build'], true),
  // Builds, by project and by id.
  k(
    'how did the last build of shop go?',
    'broken-all',
    'shop',
    (i) => [i.shopPass, 'succeeded', '2026-03-02 09:32:00 UTC'],
    true,
  ),
  k('what happened in build {shopOld}?', 'api-server', 'shop', (i) => [
    i.shopOld,
    'failed',
    'src/App.tsx:1:27',
  ]),
  k('is broken-dep building now?', 'shop', 'broken-dep', (i) => [i.brokenDepFixed, 'succeeded']),
  k('when was api-server last built?', 'shop', 'api-server', (i) => [i.apiTests, '2026-03-02 11:02:00 UTC']),
  u('what happened in build b999-abcdef?', 'shop', null, () => ['b999-abcdef'], true),
  u('how did the last build of notes go?', 'shop', 'notes', () => ['not been built']),
  // The last failure.
  k(
    'why did broken-all fail?',
    'shop',
    'broken-all',
    (i) => [i.brokenAll, 'src/total.ts:3:9', 'TS2322'],
    true,
  ),
  k('what was the last failure?', 'broken-all', 'broken-all', (i) => [i.brokenAll, 'src/total.ts:3:9']),
  k(
    'what went wrong in api-server?',
    'shop',
    'api-server',
    (i) => [i.apiTests, 'tests failed', 'GET /users returns 200'],
    true,
  ),
  k('what was the last failure of shop?', 'api-server', 'shop', (i) => [
    i.shopOld,
    'src/App.tsx:1:27',
    `Since then: build ${i.shopPass} succeeded`,
  ]),
  k('why did the build of broken-dep fail?', 'shop', 'broken-dep', (i) => [
    i.brokenDepFailed,
    'canvas-confetti',
    'src/party.js:1:22',
  ]),
  // Tests.
  k(
    'how do the tests of api-server do?',
    'shop',
    'api-server',
    (i) => ['failed', i.apiTests, 'npm test', 'test/users.test.js:4:1'],
    true,
  ),
  k('did the tests pass?', 'shop', 'shop', (i) => ['passed', i.shopPass, 'pnpm run test']),
  k('what did TestBot say about shop?', 'api-server', 'shop', (i) => ['passed', i.shopPass]),
  k('does broken-all have tests?', 'shop', 'broken-all', () => ['no test command']),
  // Repairs.
  k(
    'what did RepairBot do to broken-dep?',
    'shop',
    'broken-dep',
    (i) => [i.repairId, 'canvas-confetti@^1.9.3', 'applied', i.brokenDepFailed],
    true,
  ),
  k('what repairs were made?', 'broken-dep', 'broken-dep', (i) => [i.repairId, 'package.json']),
  k('did RepairBot fix broken-all?', 'shop', 'broken-all', () => ['no repairs', 'had no repair']),
  k('which repairs did shop get?', 'broken-dep', 'shop', () => ['no repairs']),
  // Files and folders.
  k(
    'which files are in src?',
    'shop',
    'shop',
    () => ['App.tsx', 'main.tsx', 'src/components/', 'src/auth/'],
    true,
  ),
  k('which files are in src/routes of api-server?', 'shop', 'api-server', () => ['users.js']),
  k('how many files does broken-dep have?', 'shop', 'broken-dep', () => ['4 files']),
  k('where is LoginForm.tsx?', 'shop', 'shop', () => ['src/components/LoginForm.tsx']),
  k('where is party.js in broken-dep?', 'shop', 'broken-dep', () => ['src/party.js']),
  k('what is in src/total.ts of broken-all?', 'shop', 'broken-all', () => [
    '7 lines',
    "const label: number = 'total'",
  ]),
  k('which files does notes have?', 'shop', 'notes', () => ['index.html', 'app.js'], true),
  // Code.
  k('where is the login handled?', 'shop', 'shop', () => ['src/auth/login.ts:2', 'handleLogin'], true),
  k('what uses date-fns?', 'shop', 'shop', () => ['src/utils/format.ts:1', 'package.json:'], true),
  k('where is the users route defined in api-server?', 'shop', 'api-server', () => ['src/routes/users.js']),
  k('what uses canvas-confetti in broken-dep?', 'shop', 'broken-dep', () => ['src/party.js:1']),
  k('where is formatPrice used?', 'shop', 'shop', () => [
    'src/components/CartSummary.tsx',
    'src/utils/format.ts:3',
  ]),
  u('where is the payment handled?', 'shop', 'shop', () => ['payment']),
  // Dependencies and scripts.
  k(
    'what dependencies does shop have?',
    'broken-all',
    'shop',
    () => ['react: ^18.3.1', 'date-fns: ^3.6.0', 'package.json:'],
    true,
  ),
  k('which version of express does api-server use?', 'shop', 'api-server', () => [
    'express ^4.21.0',
    'package.json:',
  ]),
  k('what scripts does shop have?', 'api-server', 'shop', () => [
    'build: tsc -b && vite build',
    'test: vitest run',
    'package.json:',
  ]),
  k('how do I start api-server?', 'shop', 'api-server', () => ['start: node src/server.js']),
  // Steps, logs, bots.
  k('how long did the install of shop take?', 'api-server', 'shop', (i) => [i.shopPass, '12.4s']),
  k('show the logs of broken-all', 'shop', 'broken-all', (i) => [i.brokenAll, 'error TS2322']),
  k('what did ScanBot find in broken-all?', 'shop', 'broken-all', () => ['src/total.ts:3:9']),
  k(
    'which projects are there?',
    'shop',
    null,
    () => ['shop', 'broken-all', 'broken-dep', 'api-server', 'notes'],
    true,
  ),
  // The same records, asked another way.
  k('why is api-server red?', 'shop', 'api-server', (i) => [i.apiTests, 'tests failed']),
  k('which node version does shop need?', 'broken-all', 'shop', () => ['asks for no version']),
  k('does shop depend on lodash?', 'api-server', 'shop', () => ["lodash is not in shop's package.json"]),
  k('what did DependencyBot do in shop?', 'api-server', 'shop', (i) => [
    i.shopPass,
    'install: succeeded in 12.4s',
  ]),
  k('tell me about broken-dep', 'shop', 'broken-dep', (i) => [
    i.brokenDepFixed,
    'succeeded',
    i.brokenDepFailed,
  ]),
  k('how do I fix it?', 'broken-all', 'broken-all', () => ['src/total.ts:3:9', 'Suggestion:']),
  k('what is in package.json of api-server?', 'shop', 'api-server', () => ['"start": "node src/server.js"']),
  k('where is the session token stored?', 'shop', 'shop', () => ['src/auth/login.ts:5']),
  k('where is the email validated in api-server?', 'shop', 'api-server', () => ['src/routes/users.js:5']),
  k('how long did the last build of broken-dep take?', 'shop', 'broken-dep', (i) => [
    i.brokenDepFixed,
    '40.0s in all',
  ]),
  // Names Forge does not hold, and questions the records cannot answer.
  u('what is the plan of broken-alll?', 'shop', null, () => ['broken-alll'], true),
  u('why did project shopp fail?', 'shop', null, () => ['shopp']),
  u('what is the meaning of life?', 'shop', 'shop', () => []),
  u('should I rewrite shop in Rust?', 'api-server', 'shop', () => []),
];
