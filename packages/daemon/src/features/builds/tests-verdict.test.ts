import { testsVerdict, type Build, type Blueprint, type TestReport } from '@forge/shared';
import { makeBlueprint } from '@forge/testing';
import { describe, expect, it } from 'vitest';

// The verdict the engine records when a build ends (engine/endings.ts' complete) and every client shows.
const bp = makeBlueprint({ test: ['npm', 'run', 'test'] });
const report = (over: Partial<TestReport>): TestReport => ({
  ran: true,
  passed: true,
  command: 'npm run test',
  durationMs: 10,
  outputTail: '',
  ...over,
});
const counts = { passed: 2, failed: 1, skipped: 0, total: 3 };
const of = (
  test: TestReport | null,
  blueprint: Blueprint | null = bp,
  testsOption: Build['testsOption'] = null,
) => testsVerdict({ test, blueprint, testsOption });

describe('testsVerdict', () => {
  it('is failed with the counts when cases failed, under the default policy', () => {
    expect(of(report({ passed: false, counts }))).toEqual({
      status: 'failed',
      command: 'npm run test',
      policy: 'required',
      policySource: 'default',
      counts,
      summary: '1 failed, 2 passed (npm run test)',
    });
  });

  it('says how a runner failed when no case did; a stopped runner is skipped with its reason', () => {
    expect(of(report({ passed: false }))?.summary).toBe('npm run test exited with an error');
    expect(of(report({ passed: false, reason: 'timed out after 3s' }))?.summary).toBe(
      'npm run test: timed out after 3s',
    );
    expect(of(report({ passed: null, reason: 'it watches' }))).toMatchObject({
      status: 'skipped',
      reason: 'it watches',
    });
  });

  it('takes the policy from --tests, then the forge config, then required', () => {
    const failed = report({ passed: false });
    const config = makeBlueprint({ test: ['npm', 'test'], testsPolicy: 'optional' });
    expect(of(failed, config)).toMatchObject({ policy: 'optional', policySource: 'config' });
    expect(of(failed, config, 'required')).toMatchObject({ policy: 'required', policySource: 'option' });
  });

  it('is skipped under skip, none without tests, skipped when they could not run', () => {
    expect(of(null, bp, 'skip')).toMatchObject({ status: 'skipped', summary: 'skipped (--tests skip)' });
    expect(of(null, makeBlueprint({ test: null }))).toMatchObject({ status: 'none' });
    const noBrowser = report({ ran: false, passed: null, reason: 'this machine has no Chrome' });
    expect(of(noBrowser)).toMatchObject({
      status: 'skipped',
      summary: 'skipped: this machine has no Chrome',
    });
  });

  it('is passed with the counts, and nothing before the build reached its tests', () => {
    const green = { passed: 3, failed: 0, skipped: 0, total: 3 };
    expect(of(report({ counts: green }))).toMatchObject({
      status: 'passed',
      summary: '3 passed (npm run test)',
    });
    expect(of(null)).toBeUndefined();
    expect(of(null, null)).toBeUndefined();
  });

  it("is the record's own once the daemon wrote it", () => {
    const recorded = { ...of(report({ passed: false, counts }))!, policy: 'optional' as const };
    expect(testsVerdict({ test: null, blueprint: bp, testsOption: null, verdict: recorded })).toBe(recorded);
  });
});
