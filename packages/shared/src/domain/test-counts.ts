// The test policies and counts in words, without their schemas (tests-verdict.ts re-exports
// these), for a client's first paint (schema-free.ts).

/**
 * What a build's tests mean for its verdict. `required`: tests that fail fail the verdict of
 * `forge ci` and `--wait` (exit 7); `optional`: they run and are reported, the exit stays 0;
 * `skip`: they are not run at all.
 */
export const TESTS_POLICIES = ['required', 'optional', 'skip'] as const;
// The type from the list itself: importing it from the schema file would make an import cycle.
type TestsPolicy = (typeof TESTS_POLICIES)[number];

/** The policy when neither the command (`--tests`) nor the project's forge config (`tests`) sets one. */
export const DEFAULT_TESTS_POLICY: TestsPolicy = 'required';

/** "3 failed, 12 passed, 1 skipped" (only the counts that are not zero; "no test cases" for none). */
export function formatTestCounts(counts: { passed: number; failed: number; skipped: number }): string {
  const parts = [
    counts.failed > 0 ? `${counts.failed} failed` : '',
    counts.passed > 0 ? `${counts.passed} passed` : '',
    counts.skipped > 0 ? `${counts.skipped} skipped` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'no test cases';
}
