import { BOT_ROSTER, blueprintLines, type Blueprint, type BotInfo } from '@forge/shared';
import { describe, expect, it } from 'vitest';
import { paint } from '../terminal.ts';
import { formatBots } from './bots.ts';
import { formatDiff, formatRepair } from './repairs.ts';
import { formatMemory } from '../commands/memory.ts';

const plain = paint(false);

describe('formatBots', () => {
  const fleet: BotInfo[] = BOT_ROSTER.map((b) => ({
    ...b,
    status: b.name === 'BuildBot' ? 'building' : b.name === 'TestBot' ? 'error' : 'active',
    currentJob: b.name === 'BuildBot' ? 'build shop#3' : null,
    jobsRun: b.name === 'BuildBot' ? 12 : 0,
    failures: b.name === 'TestBot' ? 2 : 0,
    lastJob: null,
  }));

  it('groups the 25 bots by category, in the fleet’s order, with counts', () => {
    const lines = formatBots(fleet, plain);
    expect(lines.filter((l) => /^\w+ \(\d+\)$/.test(l))).toEqual([
      'infrastructure (6)',
      'development (6)',
      'operations (6)',
      'services (7)',
    ]);
    expect(lines.filter((l) => /^ {2}\w+Bot /.test(l))).toHaveLength(25);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}BuildBot +building +12 +0 +build shop#3$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}TestBot +error +0 +2 +-$/));
  });

  it('colours statuses (active green, building yellow, error red) only when asked', () => {
    expect(formatBots(fleet, plain).join('\n')).not.toContain('\u001b');
    const coloured = formatBots(fleet, paint(true)).join('\n');
    expect(coloured).toContain('\u001b[33mbuilding');
    expect(coloured).toContain('\u001b[31merror');
    expect(coloured).toContain('\u001b[32mactive');
  });

  it('shows a category it does not know after the known ones', () => {
    const lines = formatBots([{ ...fleet[0]!, category: 'experimental' }], plain);
    expect(lines[0]).toBe('experimental (1)');
  });
});

describe('formatBlueprint', () => {
  const plan: Blueprint = {
    kind: 'static-build',
    framework: 'vite',
    hasPackageJson: true,
    packageManager: 'pnpm',
    install: ['pnpm', 'install', '--frozen-lockfile'],
    build: ['pnpm', 'run', 'build'],
    test: null,
    start: null,
    outputDir: 'dist',
    env: { NODE_ENV: 'production' },
    timeoutMs: 600_000,
    toolchain: null,
    node: null,
    appDir: '.',
    installDir: '.',
    apps: [],
    site: null,
    decisions: [
      { field: 'packageManager', value: 'pnpm', file: 'pnpm-lock.yaml', rule: 'pnpm-lock.yaml present' },
      { field: 'outputDir', value: 'dist', file: null, rule: "Vite's default" },
    ],
  };

  it('shows what will run, then each decision with its file (or default) and rule', () => {
    expect(blueprintLines(plan)).toEqual([
      'Plan',
      '  kind             static-build',
      '  framework        vite',
      '  package manager  pnpm',
      '  install          pnpm install --frozen-lockfile',
      '  build            pnpm run build',
      '  test             (none)',
      '  start            (none)',
      '  output dir       dist',
      '  env              NODE_ENV',
      '  timeout          10m00s per stage',
      '',
      'Decisions',
      '  packageManager  pnpm  [pnpm-lock.yaml] pnpm-lock.yaml present',
      "  outputDir       dist  [default] Vite's default",
    ]);
  });

  it('quotes arguments a shell would split, and strips control characters', () => {
    const lines = blueprintLines({
      ...plan,
      framework: 'vite\u001b[2J',
      build: ['node', 'build script.js', "it's"],
      decisions: [],
    });
    expect(lines[2]).toBe('  framework        vite');
    expect(lines[5]).toBe(`  build            node 'build script.js' 'it'\\''s'`);
    expect(lines).not.toContain('Decisions');
  });
});

describe('formatRepair / formatDiff', () => {
  const repair = {
    id: 'r_7',
    code: 'FIX_IMPORT_CASE' as const,
    summary: 'RepairBot changed ./components/header to ./components/Header in src/App.tsx',
    files: ['src/App.tsx'],
    status: 'applied' as const,
    diff: '--- a/src/App.tsx\n+++ b/src/App.tsx\n@@ -1 +1 @@\n-import Header from "./components/header";\n+import Header from "./components/Header";\n',
    at: '2024-01-01T00:00:00.000Z',
    buildId: 'b3',
  };

  it('says what RepairBot did, its code, id and status, the files, then the diff', () => {
    expect(formatRepair(repair, paint(false))).toEqual([
      'RepairBot changed ./components/header to ./components/Header in src/App.tsx  [FIX_IMPORT_CASE, r_7] applied',
      '  files: src/App.tsx',
      '  --- a/src/App.tsx',
      '  +++ b/src/App.tsx',
      '  @@ -1 +1 @@',
      '  -import Header from "./components/header";',
      '  +import Header from "./components/Header";',
    ]);
  });

  it('colours added lines green, removed red, hunks dim, file headers bold; an empty diff is no lines', () => {
    const lines = formatDiff(repair.diff, paint(true));
    expect(lines[0]).toBe('\u001b[1m--- a/src/App.tsx\u001b[22m');
    expect(lines[2]).toBe('\u001b[2m@@ -1 +1 @@\u001b[22m');
    expect(lines[3]).toBe('\u001b[31m-import Header from "./components/header";\u001b[39m');
    expect(lines[4]).toBe('\u001b[32m+import Header from "./components/Header";\u001b[39m');
    expect(formatDiff('', paint(true))).toEqual([]);
    // A project's file cannot slip escape codes through its diff.
    expect(formatDiff('+x\u001b[2Jy', paint(false))).toEqual(['+xy']);
  });
});

describe('formatMemory', () => {
  it('newest change first, the value last (it may be long); control characters made harmless', () => {
    const lines = formatMemory(
      [
        { key: 'old', value: 'one', ts: Date.UTC(2024, 0, 1) },
        { key: 'new', value: 'two\nlines', ts: Date.UTC(2024, 5, 1) },
      ],
      false,
    );
    expect(lines[0]).toMatch(/^KEY +UPDATED +VALUE$/);
    expect(lines[1]).toMatch(/^new {2}2024-0[56]-\d\d \d\d:\d\d {2}two lines$/);
    expect(lines[2]).toMatch(/^old {2}20(23|24)-\d\d-\d\d \d\d:\d\d {2}one$/);
  });
});
