import type { Build } from './domain/builds.ts';
import type { TestsPolicy, TestsPolicySource, TestsVerdict } from './domain/tests-verdict.ts';
import { DEFAULT_TESTS_POLICY, formatTestCounts } from './domain/test-counts.ts';

/** The build's test policy: the command's `--tests`, else the forge config's `tests`, else required. */
export function testsPolicyOf(build: Pick<Build, 'testsOption' | 'blueprint'>): {
  policy: TestsPolicy;
  source: TestsPolicySource;
} {
  if (build.testsOption) return { policy: build.testsOption, source: 'option' };
  if (build.blueprint?.testsPolicy) return { policy: build.blueprint.testsPolicy, source: 'config' };
  return { policy: DEFAULT_TESTS_POLICY, source: 'default' };
}

const POLICY_WORDS: Record<TestsPolicySource, (p: TestsPolicy) => string> = {
  option: (p) => `--tests ${p}`,
  config: (p) => `"tests": "${p}" in the forge config`,
  default: (p) => `${p} by default`,
};

/** The tests decide against the build: they failed and the policy requires them (exit 7). */
export const verdictFails = (verdict: TestsVerdict | null | undefined): boolean =>
  verdict?.status === 'failed' && verdict.policy === 'required';

/**
 * What a build's tests say: the record's verdict once the daemon wrote it (when the build ended),
 * else read the same way from TestBot's report (carried over with a reused output), the plan and the
 * policy — for a build still on its way, one that failed after its tests, or an older record. Every
 * client shows it. Undefined while the build has not reached its tests. `failed` means they ran and did not pass: a failing case, a runner that exited non-zero or
 * timed out; `skipped` means they were not run or gave no result, with the reason.
 */
export function testsVerdict(
  build: Pick<Build, 'test' | 'blueprint' | 'testsOption'> & Partial<Pick<Build, 'verdict'>>,
): TestsVerdict | undefined {
  if (build.verdict) return build.verdict;
  const { policy, source } = testsPolicyOf(build);
  const bp = build.blueprint;
  const report = build.test;
  const command = report?.command ?? null;
  const base = { command, counts: null, policy, policySource: source };
  if (!report) {
    if (!bp) return undefined;
    if (policy === 'skip' && bp.test) {
      const reason = POLICY_WORDS[source](policy);
      return { ...base, status: 'skipped', reason, summary: `skipped (${reason})` };
    }
    if (bp.test !== null) return undefined;
    const skippedByConfig = bp.decisions.some(
      (d) => d.field === 'test' && d.value === 'none' && d.rule.includes('false in the forge config'),
    );
    if (skippedByConfig) {
      const reason = 'the forge config sets "test": false';
      return { ...base, status: 'skipped', reason, summary: `skipped: ${reason}` };
    }
    return { ...base, status: 'none', summary: 'no test script' };
  }
  const counts = report.counts ?? null;
  const tally = counts ? formatTestCounts(counts) : null;
  const run = report.command ?? 'the test command';
  const own = report.command ? ` (${report.command})` : '';
  if (!report.ran || report.passed === null) {
    // Not run (a runner that needs a browser the machine lacks), or stopped before it could say
    // (watch mode, a key prompt): the reason says which; neither is a failing test.
    const reason = report.reason ?? (report.ran ? 'the runner gave no result' : 'the tests did not run');
    return { ...base, status: 'skipped', reason, summary: `skipped: ${reason}` };
  }
  if (report.passed) {
    return { ...base, counts, status: 'passed', summary: `${tally ?? 'passed'}${own}` };
  }
  // A run stopped by its timeout says so (the reason), not that the runner "exited with an error".
  const ended = report.reason ? `: ${report.reason}` : ' exited with an error';
  const summary =
    counts && counts.failed > 0 ? `${tally}${own}` : `${run}${ended}${tally ? ` (${tally})` : ''}`;
  return { ...base, counts, status: 'failed', summary };
}
