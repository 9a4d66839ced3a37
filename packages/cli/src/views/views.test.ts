import { BOT_ROSTER, type Blueprint, type BotInfo } from '@forge/shared';
import { describe, expect, it } from 'vitest';
import { paint } from '../terminal.ts';
import { formatBlueprint } from './blueprint.ts';
import { formatBots } from './bots.ts';

const plain = paint(false);

describe('formatBots', () => {
  const fleet: BotInfo[] = BOT_ROSTER.map((b) => ({
    ...b,
    status: b.name === 'BuildBot' ? 'building' : b.name === 'TestBot' ? 'error' : 'active',
    currentJob: b.name === 'BuildBot' ? 'build shop#3' : null,
    jobsRun: b.name === 'BuildBot' ? 12 : 0,
    failures: b.name === 'TestBot' ? 2 : 0,
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
    decisions: [
      { field: 'packageManager', value: 'pnpm', file: 'pnpm-lock.yaml', rule: 'pnpm-lock.yaml present' },
      { field: 'outputDir', value: 'dist', file: null, rule: "Vite's default" },
    ],
  };

  it('shows what will run, then each decision with its file (or default) and rule', () => {
    expect(formatBlueprint(plan)).toEqual([
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
    const lines = formatBlueprint({
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
