import { describe, expect, it } from 'vitest';
import type { DiagnosedError } from './domain/assistants.ts';
import { otherErrors } from './diagnosis-others.ts';

const missing = (name: string, line: number): DiagnosedError => ({
  code: 'MISSING_PACKAGE',
  summary: `"${name}" is imported by src/main.ts but not declared in package.json.`,
  file: 'src/main.ts',
  line,
  subjects: [name],
  repair: 'ADD_MISSING_PACKAGES',
});

describe('the other errors of a failure, as every client words them', () => {
  it('counts which are repaired in the same pass and which remain, each with its place', () => {
    const view = otherErrors({
      others: [
        missing('clsx', 3),
        { code: 'TYPE_ERROR', summary: 'tsc: nope', file: 'src/count.ts', line: 1, column: 7 },
        { code: 'UNKNOWN', summary: 'something else' },
      ],
    });
    expect(view).toEqual({
      heading: '3 more errors: 1 repairable in the same pass, 2 remain',
      listed: [
        expect.objectContaining({ state: 'repairable', place: 'src/main.ts:3' }),
        expect.objectContaining({ state: 'remains', place: 'src/count.ts:1:7' }),
        expect.objectContaining({ state: 'remains', place: null }),
      ],
      more: null,
    });
  });

  it('says "1 more error" and "remains" in the singular', () => {
    expect(otherErrors({ others: [{ code: 'UNKNOWN', summary: 'x', file: 'a.js' }] })?.heading).toBe(
      '1 more error: 0 repairable in the same pass, 1 remains',
    );
  });

  it('lists five and counts the rest', () => {
    const view = otherErrors({ others: Array.from({ length: 8 }, (_, i) => missing(`p${i}`, i + 1)) });
    expect(view?.listed.map((o) => o.place)).toEqual([1, 2, 3, 4, 5].map((l) => `src/main.ts:${l}`));
    expect(view?.more).toBe('…and 3 more');
  });

  it('is null for a failure with one error', () => {
    expect(otherErrors({})).toBeNull();
    expect(otherErrors({ others: [] })).toBeNull();
  });
});
