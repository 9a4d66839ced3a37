import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The root test config (Vitest 4 has no workspace files; this is `test.projects`).
 * Run: vitest run --config vitest.workspace.ts [--project <name>]
 */
export default defineConfig({
  test: {
    // Two test files at a time even on a 2-core machine (Vitest's default there is one): many files
    // wait on child processes, installs and sockets rather than on the CPU, and one at a time made the
    // suite take most of an hour. The projects that set fileParallelism: false still run one file at
    // a time, after the others.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'daemon',
          root: './packages/daemon',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/reliability/**', 'test/scale-out/**', 'test/real-repos/**', '**/node_modules/**'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          // The hostile-world suite (docs/reliability.md): real daemons under faults and
          // load, one file at a time so a load or kill test never shares the machine with another.
          name: 'reliability',
          root: './packages/daemon',
          include: ['test/reliability/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          // Scale-out (docs/scale-out.md): a coordinator and `forge worker` processes on a
          // real Redis; one file at a time, like the reliability suite.
          name: 'scale-out',
          root: './packages/daemon',
          include: ['test/scale-out/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          // Repositories as their authors keep them (docs/pipeline.md): each file starts one daemon,
          // uploads small projects written by the test and installs them from the npm registry; one
          // file at a time, as each file's builds already run side by side inside its daemon.
          name: 'real-repos',
          root: './packages/daemon',
          include: ['test/real-repos/**/*.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'cli',
          root: './packages/cli',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // Fails fast with "run pnpm build" when the built forge or daemon is missing.
          globalSetup: ['./test/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // CLI tests spawn real daemons, forge ci a private one per run: one file at a time, as two
          // beside the daemon's files starved a daemon's start on a loaded 2-core machine.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'tui',
          root: './packages/tui',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.tsx'],
          environment: 'node',
        },
      },
      './packages/web/vite.config.ts',
      {
        test: {
          // Browser tests: the built web app in Debian's Chromium against a real daemon (pnpm build first).
          name: 'e2e',
          root: './packages/web',
          include: ['e2e/**/*.e2e.test.ts'],
          environment: 'node',
          globalSetup: ['./e2e/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
