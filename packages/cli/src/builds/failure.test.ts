import { describe, expect, it } from 'vitest';
import { paint } from '../terminal.ts';
import { formatStatus, type StatusSnapshot } from '../views/status.ts';
import {
  alignRows,
  assistantRows,
  diagnosisRows,
  failureLines,
  failureRows,
  firstErrorText,
  repairRows,
} from './failure.ts';
import type { Diagnosis, Repair } from '@forge/shared';

const typeError = {
  code: 'BUILD_FAILED' as const,
  message: 'npm run build exited with code 2',
  firstLine: "error TS2322: Type 'number' is not assignable to type 'string'.",
  location: { file: 'src/app.ts', line: 3, column: 7 },
  tail: ['checking 2 files…'],
};

describe('failureRows', () => {
  it('puts the first error line with its place first, then the message with its code', () => {
    expect(failureRows(typeError)).toEqual([
      ['error', "src/app.ts:3:7  error TS2322: Type 'number' is not assignable to type 'string'."],
      ['', 'npm run build exited with code 2 [BUILD_FAILED]'],
    ]);
  });

  it('without a first line, gives the message, the probable cause and the last lines, unless told not to', () => {
    const error = {
      code: 'PREVIEW_FAILED' as const,
      message: 'The app exited with code 1 before it listened on a port (it was given PORT=4100).',
      probableCause: 'This was probably caused by the Node version.',
      tail: ['loading', '\u001b[31mboom\u001b[39m'],
    };
    expect(failureRows(error)).toEqual([
      ['error', `${error.message} [PREVIEW_FAILED]`],
      ['cause', 'This was probably caused by the Node version.'],
      ['output', 'loading'],
      ['', 'boom'],
    ]);
    expect(failureRows(error, { tail: false }).map(([label]) => label)).toEqual(['error', 'cause']);
  });

  it('never lets the project print escape codes through its first line', () => {
    expect(firstErrorText({ firstLine: '\u001b]0;pwned\u0007Error: x' })).toBe('Error: x');
  });

  it('as lines: aligned, the error rows coloured when asked', () => {
    expect(failureLines(typeError, paint(false))).toEqual([
      "  error  src/app.ts:3:7  error TS2322: Type 'number' is not assignable to type 'string'.",
      '         npm run build exited with code 2 [BUILD_FAILED]',
    ]);
    expect(failureLines(typeError, paint(true))[0]).toContain('\u001b[31msrc/app.ts:3:7');
  });
});

describe('forge status', () => {
  const base: StatusSnapshot = {
    url: 'http://127.0.0.1:4317',
    version: '1.0.0',
    uptimeMs: 5_000,
    project: 'site',
    build: {
      id: 'b9',
      status: 'failed',
      stage: 'build-failed',
      durationMs: 2_000,
      cacheHit: false,
      previewUrl: null,
      error: typeError,
      diagnosis: null,
    },
    activities: [],
  };

  it('says why the latest build failed, first error line first, and where the whole log is', () => {
    const lines = formatStatus(base);
    const at = lines.findIndex((l) => l.startsWith('Project site: build b9 failed'));
    expect(lines.slice(at + 1, at + 4)).toEqual([
      "  src/app.ts:3:7  error TS2322: Type 'number' is not assignable to type 'string'.",
      '  npm run build exited with code 2 [BUILD_FAILED]',
      '  full log: forge logs b9',
    ]);
  });

  it("adds ScanBot's diagnosis: what, where, what to do", () => {
    const lines = formatStatus({ ...base, build: { ...base.build!, diagnosis: missingPackage } });
    const at = lines.findIndex((l) => l.startsWith('Project site: build b9 failed'));
    expect(lines.slice(at + 3, at + 7)).toEqual([
      '  diagnosis: src/main.ts imports canvas-confetti, which package.json does not declare. [MISSING_PACKAGE]',
      '  at: src/main.ts:2:22',
      '  fix: Add it: RepairBot can (forge fix b9).',
      '  full log: forge logs b9',
    ]);
  });

  it('says nothing more of a build that succeeded or was cancelled', () => {
    const ok = formatStatus({ ...base, build: { ...base.build!, status: 'succeeded', error: null } });
    expect(ok.join('\n')).not.toContain('forge logs');
    const cancelled = formatStatus({
      ...base,
      build: { ...base.build!, status: 'cancelled', error: { code: 'CANCELLED', message: 'cancelled' } },
    });
    expect(cancelled.join('\n')).not.toContain('forge logs');
  });
});

const missingPackage: Diagnosis = {
  code: 'MISSING_PACKAGE',
  summary: 'src/main.ts imports canvas-confetti, which package.json does not declare.',
  file: 'src/main.ts',
  line: 2,
  column: 22,
  suggestion: 'Add it: RepairBot can (forge fix b9).',
  subjects: ['canvas-confetti'],
  repair: 'ADD_MISSING_PACKAGES',
};

const repair = (status: Repair['status'], summary: string): Repair => ({
  id: `r_${status}`,
  code: 'ADD_MISSING_PACKAGES',
  summary,
  files: ['package.json'],
  status,
  diff: '',
  at: '2024-01-01T00:00:00.000Z',
  buildId: 'b9',
});

describe('diagnosis and repairs', () => {
  it('the diagnosis: its summary and code, the project-relative place, the suggestion', () => {
    expect(diagnosisRows(missingPackage)).toEqual([
      ['diagnosis', `${missingPackage.summary} [MISSING_PACKAGE]`],
      ['at', 'src/main.ts:2:22'],
      ['fix', 'Add it: RepairBot can (forge fix b9).'],
    ]);
    // Only what it knows: a file without a line, no suggestion; escape codes never get through.
    expect(diagnosisRows({ code: 'UNKNOWN', summary: 'x\u001b[2Jy', file: 'vite.config.ts' })).toEqual([
      ['diagnosis', 'xy [UNKNOWN]'],
      ['at', 'vite.config.ts'],
    ]);
  });

  it('repairs made say what RepairBot did; proposed ones say how to apply them, in one row', () => {
    expect(
      repairRows(
        [
          repair('applied', 'RepairBot added canvas-confetti@^1.9.3 to package.json'),
          repair('failed', 'RepairBot could not reinstall'),
          repair('proposed', 'add zod@^3.23.8 to package.json'),
          repair('proposed', 'fix the case of ./Components/App'),
        ],
        'b9',
      ),
    ).toEqual([
      ['repaired', 'RepairBot added canvas-confetti@^1.9.3 to package.json'],
      ['repair', 'failed: RepairBot could not reinstall'],
      [
        'repair',
        'Run forge fix b9 to apply: add zod@^3.23.8 to package.json; fix the case of ./Components/App',
      ],
    ]);
    expect(repairRows([], 'b9')).toEqual([]);
  });

  it('a build without either has no rows; aligned lines colour the diagnosis and the repairs', () => {
    expect(assistantRows({ id: 'b1', diagnosis: null, repairs: [] })).toEqual([]);
    const rows = assistantRows({
      id: 'b9',
      diagnosis: missingPackage,
      repairs: [repair('applied', 'RepairBot added canvas-confetti@^1.9.3 to package.json')],
    });
    expect(alignRows(rows, paint(false))).toEqual([
      `  diagnosis  ${missingPackage.summary} [MISSING_PACKAGE]`,
      '  at         src/main.ts:2:22',
      '  fix        Add it: RepairBot can (forge fix b9).',
      '  repaired   RepairBot added canvas-confetti@^1.9.3 to package.json',
    ]);
    const colored = alignRows(rows, paint(true));
    expect(colored[0]).toContain('\u001b[33m');
    expect(colored[3]).toContain('\u001b[32m');
  });
});
