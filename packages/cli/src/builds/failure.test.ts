import { describe, expect, it } from 'vitest';
import { paint } from '../terminal.ts';
import { formatStatus, type StatusSnapshot } from '../views/status.ts';
import { failureLines, failureRows, firstErrorText } from './failure.ts';

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
