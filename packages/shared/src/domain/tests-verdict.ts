import { z } from 'zod';
import { TESTS_POLICIES } from './test-counts.ts';

export * from './test-counts.ts';

export const TestsPolicy = z.enum(TESTS_POLICIES);
export type TestsPolicy = z.infer<typeof TestsPolicy>;

/** Where a build's test policy came from: `--tests` (the upload's or build's `tests`), the forge config, or the default. */
export const TestsPolicySource = z.enum(['option', 'config', 'default']);
export type TestsPolicySource = z.infer<typeof TestsPolicySource>;

/** Test cases kept in a build record: a suite larger than this is counted whole, listed in part. */
export const MAX_TEST_CASES = 2_000;

/** One of the project's own test cases, as its runner reported it. */
export const TestCaseResult = z.object({
  name: z.string(),
  /** The suite or file it belongs to (JUnit's classname). */
  classname: z.string(),
  /** Seconds, as the runner measured it (0 when it did not say). */
  time: z.number().nonnegative(),
  status: z.enum(['passed', 'failed', 'error', 'skipped']),
  /** The failure's message (failed and error cases; a skipped case's reason when given). */
  message: z.string().optional(),
  /** The failure's details (assertion, stack), cut to a few kilobytes. */
  details: z.string().optional(),
});
export type TestCaseResult = z.infer<typeof TestCaseResult>;

/** How many of the project's tests passed, failed (errors included) and were skipped. */
export const TestCounts = z.object({
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});
export type TestCounts = z.infer<typeof TestCounts>;

/**
 * How TestBot reads the cases of the project's runner: the runner's own machine-readable reporter,
 * run beside its usual one, writing to a file Forge names when the tests run (`{report}` below).
 */
export const TestResultsPlan = z.object({
  runner: z.enum(['vitest', 'jest', 'node', 'mocha']),
  /** What the reporter writes: JUnit XML, or Jest's JSON results. */
  format: z.enum(['junit', 'jest-json']),
  /** Arguments appended to the test command (`{report}` is the report file). */
  args: z.array(z.string()),
  /** Environment added to the test command (`{report}` likewise), for runners given no arguments. */
  env: z.record(z.string(), z.string()),
});
export type TestResultsPlan = z.infer<typeof TestResultsPlan>;

/** The placeholder of TestResultsPlan for the report file. */
export const TEST_REPORT_PLACEHOLDER = '{report}';

/**
 * What a build's tests say, beside (never instead of) the build's own status. `passed`: they ran
 * and passed; `failed`: they ran and did not pass (a failing test, a timeout, a runner that would
 * never end); `none`: the project has no tests; `skipped`: they were not run (`--tests skip`, the
 * forge config's `"test": false`, a machine without the browser they need: `reason` says which).
 */
export const TestsVerdict = z.object({
  status: z.enum(['passed', 'failed', 'skipped', 'none']),
  /** The command TestBot ran (or would have run). */
  command: z.string().nullable(),
  /** Why the tests were not run, or why the runner was stopped. */
  reason: z.string().optional(),
  /** Counts of the project's test cases, when Forge could read them from the runner's report. */
  counts: TestCounts.nullable(),
  /** The policy that applied to this build: required (failed tests exit 7), optional, skip. */
  policy: TestsPolicy,
  /** Where that policy came from. */
  policySource: TestsPolicySource,
  /** One line for people: "3 failed, 12 passed (npm test)", "skipped (--tests skip)". */
  summary: z.string(),
});
export type TestsVerdict = z.infer<typeof TestsVerdict>;
