import type { Build } from './domain/builds.ts';
import type { TestsVerdict } from './domain/cli-result.ts';

/**
 * The verdict of a build's test run, as `forge ci`, `--wait` and every client show it; undefined
 * while the build has not reached its tests (it failed before them, or is still on its way).
 */
export function testsVerdict(build: Pick<Build, 'test' | 'blueprint'>): TestsVerdict | undefined {
  const report = build.test;
  if (report) {
    if (report.ran && report.passed !== null) {
      return { status: report.passed ? 'passed' : 'failed', command: report.command };
    }
    // Not run (a runner that needs a browser the machine lacks), or stopped before it could say
    // (watch mode, a key prompt): the reason says which.
    return {
      status: 'skipped',
      command: report.command,
      reason: report.reason ?? 'the runner gave no result',
    };
  }
  const bp = build.blueprint;
  if (!bp || bp.test !== null) return undefined;
  const skippedByConfig = bp.decisions.some(
    (d) => d.field === 'test' && d.value === 'none' && d.rule.includes('false in the forge config'),
  );
  return skippedByConfig
    ? { status: 'skipped', command: null, reason: 'the forge config sets "test": false' }
    : { status: 'none', command: null };
}
