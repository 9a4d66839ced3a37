import { describe, expect, it } from 'vitest';
import type { Repair } from '@forge/shared';
import { paint } from '../terminal.ts';
import { repairRows } from '../builds/failure.ts';
import { formatRepair } from './repairs.ts';

// A proposal carries what its trial on a copy of the project showed; forge fix and a failed build's
// report say it next to the repair.

const proposed: Repair = {
  id: 'b9:FIX_IMPORT_CASE',
  code: 'FIX_IMPORT_CASE',
  summary: 'RepairBot would change the import "./Page.mjs" to "./page.mjs" in build.mjs',
  files: ['build.mjs'],
  status: 'proposed',
  diff: '',
  at: '2026-01-01T00:00:00.000Z',
  buildId: 'b9',
  verification: { status: 'partial', detail: 'verified: fixes 1 of 2 errors; the build then fails: x' },
};

describe('a proposal’s verification in the CLI', () => {
  it('forge fix lists it under the repair, yellow when it fixes only some errors', () => {
    expect(formatRepair(proposed, paint(false))).toEqual([
      'RepairBot would change the import "./Page.mjs" to "./page.mjs" in build.mjs  [FIX_IMPORT_CASE, b9:FIX_IMPORT_CASE] proposed',
      '  files: build.mjs',
      '  verified: fixes 1 of 2 errors; the build then fails: x',
    ]);
    expect(formatRepair(proposed, paint(true))[2]).toBe(
      '  \u001b[33mverified: fixes 1 of 2 errors; the build then fails: x\u001b[39m',
    );
    const passes = {
      ...proposed,
      verification: { status: 'passes' as const, detail: 'verified: the build passes' },
    };
    expect(formatRepair(passes, paint(true))[2]).toBe('  \u001b[32mverified: the build passes\u001b[39m');
  });

  it('a failed build’s report says it with the command that applies the proposal', () => {
    expect(repairRows([proposed], 'b9')).toEqual([
      [
        'repair',
        'Run forge fix b9 to apply: RepairBot would change the import "./Page.mjs" to "./page.mjs" in build.mjs (verified: fixes 1 of 2 errors; the build then fails: x)',
      ],
    ]);
  });
});
