import { describe, expect, it } from 'vitest';
import { testLines } from './answers.ts';

describe('testLines', () => {
  it("quotes node --test's failing test, its place made project-relative, its error and the counts", () => {
    const tail = [
      'TAP version 13',
      '# Subtest: total multiplies price by quantity',
      'not ok 1 - total multiplies price by quantity',
      '  ---',
      '  duration_ms: 4.4',
      "  location: '/home/u/.forge/projects/calc/test/cart.test.js:5:1'",
      '  error: |-',
      '    Expected values to be strictly equal:',
      '    5 !== 6',
      '  stack: |-',
      '    Test.runInAsyncScope (node:async_hooks:206:9)',
      '1..1',
      '# tests 1',
      '# pass 0',
      '# fail 1',
      '# duration_ms 266.2',
    ].join('\n');
    expect(testLines(tail, '/home/u/.forge/projects/calc')).toEqual([
      'not ok 1 - total multiplies price by quantity',
      "  location: 'test/cart.test.js:5:1'",
      '    Expected values to be strictly equal:',
      '    5 !== 6',
      '# tests 1',
      '# pass 0',
      '# fail 1',
    ]);
  });

  it("quotes Vitest's FAIL line, assertion and place", () => {
    const tail = [
      ' ❯ src/cart.test.ts (2 tests | 1 failed) 5ms',
      ' FAIL  src/cart.test.ts > total > multiplies',
      'AssertionError: expected 5 to be 6 // Object.is equality',
      ' ❯ src/cart.test.ts:7:20',
      ' Test Files  1 failed (1)',
      '      Tests  1 failed | 1 passed (2)',
    ].join('\n');
    expect(testLines(tail, null)).toEqual([
      ' FAIL  src/cart.test.ts > total > multiplies',
      'AssertionError: expected 5 to be 6 // Object.is equality',
      ' ❯ src/cart.test.ts:7:20',
      ' Test Files  1 failed (1)',
      '      Tests  1 failed | 1 passed (2)',
    ]);
  });

  it('falls back to the last lines of an output it does not recognise', () => {
    const tail = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(testLines(tail, null)).toEqual(Array.from({ length: 8 }, (_, i) => `line ${i + 5}`));
  });
});
