import { describe, expect, it } from 'vitest';
import type { Diagnosis } from '@forge/shared';
import { diagnosisRows } from './failure.ts';

describe('a failure with several errors', () => {
  it('lists the others under the diagnosis: which are repaired in the same pass, which remain', () => {
    const diagnosis: Diagnosis = {
      code: 'MISSING_PACKAGE',
      summary: '"clsx" is imported by src/main.ts but not declared in package.json.',
      file: 'src/main.ts',
      line: 3,
      repair: 'ADD_MISSING_PACKAGES',
      others: [
        {
          code: 'IMPORT_CASE_MISMATCH',
          summary: 'src/main.ts imports "./Cart", but the file is src/cart.ts: the letter case differs.',
          file: 'src/main.ts',
          line: 2,
          column: 23,
          subjects: ['./Cart', './cart'],
          repair: 'FIX_IMPORT_CASE',
        },
        {
          code: 'TYPE_ERROR',
          summary: "tsc: Type 'string' is not assignable to type 'number'.",
          file: 'src/count.ts',
          line: 1,
        },
      ],
    };
    expect(diagnosisRows(diagnosis).slice(2)).toEqual([
      ['also', '2 more errors: 1 repairable in the same pass, 1 remains'],
      [
        'repairable',
        'src/main.ts:2:23 src/main.ts imports "./Cart", but the file is src/cart.ts: the letter case differs. [IMPORT_CASE_MISMATCH]',
      ],
      ['remains', "src/count.ts:1 tsc: Type 'string' is not assignable to type 'number'. [TYPE_ERROR]"],
    ]);
  });

  it('adds nothing when the failure had one error', () => {
    expect(diagnosisRows({ code: 'UNKNOWN', summary: 'x' })).toEqual([['diagnosis', 'x [UNKNOWN]']]);
  });
});
