import { describe, expect, it } from 'vitest';
import { ciTestCommand } from './test-command.ts';
import { planTestResults } from './test-results.ts';

/** The plan for a "test" script, as detection makes it: the test command first, then how to read its cases. */
function planFor(script: string, pm: 'npm' | 'pnpm' = 'npm', scripts: Record<string, string> = {}) {
  const all = { test: script, ...scripts };
  const argv = ciTestCommand(pm, all)!.argv;
  return { argv, ...planTestResults(pm, argv, script) };
}

describe('planTestResults', () => {
  it("adds Vitest's JUnit reporter beside its default one, to the command Forge runs itself", () => {
    const { argv, plan, rule } = planFor('vitest');
    expect(argv).toEqual(['npm', 'exec', '--no', '--', 'vitest', 'run']);
    expect(plan).toEqual({
      runner: 'vitest',
      format: 'junit',
      args: ['--reporter=default', '--reporter=junit', '--outputFile.junit={report}'],
      env: {},
    });
    expect(rule).toContain("Vitest's JUnit reporter beside its default one");
  });

  it("keeps the script's own Vitest reporter, and adds only JUnit", () => {
    expect(planFor('vitest run --reporter=verbose').plan?.args).toEqual([
      '--',
      '--reporter=junit',
      '--outputFile.junit={report}',
    ]);
  });

  it('passes the arguments through the script after -- for npm, as they are for pnpm', () => {
    const npm = planFor('tsc -p . && vitest run');
    expect(npm.argv).toEqual(['npm', 'run', 'test']);
    expect(npm.plan?.args[0]).toBe('--');
    const pnpm = planFor('tsc -p . && vitest run', 'pnpm');
    expect(pnpm.plan?.args[0]).toBe('--reporter=default');
    // With the run-once flags already after npm's --, ours follow them.
    const jest = planFor('tsc && jest');
    expect(jest.argv).toEqual(['npm', 'run', 'test', '--', '--ci', '--watchAll=false']);
    expect(jest.plan).toMatchObject({
      runner: 'jest',
      format: 'jest-json',
      args: ['--json', '--outputFile={report}'],
    });
  });

  it("gives Node's runner its reporters through NODE_OPTIONS, wherever it is in the script", () => {
    const { plan } = planFor('node --test test/ && echo done');
    expect(plan).toMatchObject({ runner: 'node', format: 'junit', args: [] });
    expect(plan?.env.NODE_OPTIONS).toBe(
      '--test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination={report}',
    );
  });

  it("reads Mocha's xunit report and Jest through react-scripts", () => {
    expect(planFor('mocha "test/**/*.spec.js"').plan).toMatchObject({
      runner: 'mocha',
      args: ['--', '--reporter=xunit', '--reporter-options=output={report}'],
    });
    expect(planFor('react-scripts test').plan?.runner).toBe('jest');
  });

  it('leaves a script that names its own report alone, and says why', () => {
    for (const script of [
      'vitest run --outputFile=out.json',
      'jest --json',
      'mocha --reporter spec',
      'node --test --test-reporter=tap',
    ]) {
      const { plan, rule } = planFor(script);
      expect(plan, script).toBeNull();
      expect(rule, script).toContain('its own');
    }
  });

  it('reads nothing from a runner it cannot give a reporter to', () => {
    expect(planFor('node test.js').plan).toBeNull();
    expect(planFor('node test.js').rule).toContain('no test runner Forge reads a report from');
    const earlier = planFor('vitest run && node check.js');
    expect(earlier.plan).toBeNull();
    expect(earlier.rule).toContain('not the last command of the script');
  });

  it("reads a forge config's own test command as the command it is", () => {
    expect(planTestResults('npm', ['vitest', 'run'], null).plan?.args).toEqual([
      '--reporter=default',
      '--reporter=junit',
      '--outputFile.junit={report}',
    ]);
    expect(planTestResults('npm', ['npm', 'test'], null).plan).toBeNull();
  });
});
