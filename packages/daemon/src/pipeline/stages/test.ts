import { formatCommand, type Blueprint, type TestReport } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import type { Stage } from './types.ts';

/** TestBot never waits longer than this, whatever the project's stage timeout. */
export const TEST_TIMEOUT_MS = 5 * 60_000;
/** Lines of test output kept in the build record (and the JUnit report). */
export const TEST_TAIL_LINES = 60;

/** TestBot: run the project's tests. The result is recorded; it never fails the build. */
export function testStage(deps: { layout: HomeLayout }): Stage<Blueprint, TestReport> {
  return {
    step: 'test',
    bot: 'TestBot',
    label: (projectName) => `test ${projectName}`,
    async run(ctx, bp) {
      const argv = bp.test!;
      const text = formatCommand(argv);
      const tail: string[] = [];
      const result = await ctx.run({
        argv,
        cwd: deps.layout.projectDir(ctx.projectName),
        env: bp.env,
        timeoutMs: Math.min(bp.timeoutMs, TEST_TIMEOUT_MS),
        onLine: (line) => {
          tail.push(line.text);
          if (tail.length > TEST_TAIL_LINES) tail.shift();
        },
      });
      const passed = result.outcome === 'succeeded';
      const report: TestReport = {
        ran: true,
        passed,
        command: text,
        durationMs: result.durationMs,
        outputTail: tail.join('\n'),
      };
      ctx.record({ test: report });
      const detail = passed
        ? 'tests passed'
        : result.outcome === 'timed-out'
          ? 'tests timed out'
          : `tests failed (exit ${result.exitCode ?? result.signal})`;
      ctx.log(passed ? 'success' : 'warn', `${text}: ${detail} (recorded; the build goes on)`);
      return {
        ok: true,
        value: report,
        detail,
        stepStatus: passed ? 'succeeded' : result.outcome === 'timed-out' ? 'timed-out' : 'failed',
      };
    },
  };
}
