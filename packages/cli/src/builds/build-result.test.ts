import { CliResult } from '@forge/shared';
import { describe, expect, it } from 'vitest';
import { at, makeBuild, makeStep } from '@forge/testing';
import { paint } from '../terminal.ts';
import { buildExitCode, formatBuildSummary, formatStageLine, toBuildResult } from './build-result.ts';
import { formatBuildsTable } from './format-builds.ts';
import { formatLogLine, logLineJson } from './format-log.ts';

const plain = paint(false);
const colour = paint(true);

const finished = makeBuild({
  id: 'b7',
  projectName: 'shop',
  stages: [
    ['starting', 0],
    ['extraction', 120],
    ['build-start', 400],
    ['build-success', 3_400],
    ['integration-available', 3_500],
  ],
  durationMs: 3_500,
  cacheHit: true,
  previewUrl: 'http://127.0.0.1:5001/',
  steps: [
    makeStep({ name: 'extract', botName: 'ExtractBot', startedAt: at(0), durationMs: 120 }),
    makeStep({
      name: 'install',
      botName: 'DependencyBot',
      status: 'cached',
      startedAt: at(150),
      durationMs: 30,
      detail: 'npm ci: reused node_modules',
    }),
    makeStep({ name: 'build', botName: 'BuildBot', startedAt: at(400), durationMs: 3_000 }),
    makeStep({ name: 'test', botName: 'TestBot', status: 'skipped', startedAt: at(3_400), durationMs: null }),
  ],
  test: { ran: true, passed: false, command: 'npm test', durationMs: 900, outputTail: '' },
  uiCheck: { ok: false, hasIndexHtml: true, missingAssets: ['/app.js'] },
  bundle: {
    totalBytes: 150_000,
    totalGzipBytes: 50_000,
    thresholdBytes: 100_000,
    files: [
      { path: 'index.html', bytes: 1_000, gzipBytes: 500, flagged: false },
      { path: 'app.js', bytes: 149_000, gzipBytes: 49_500, flagged: true },
    ],
  },
});

describe('toBuildResult (the --json document of --wait)', () => {
  it('has exactly the documented fields, with a duration per step that ran', () => {
    expect(toBuildResult(finished)).toEqual({
      projectName: 'shop',
      buildId: 'b7',
      status: 'succeeded',
      stage: 'integration-available',
      durations: { extract: 120, install: 30, build: 3_000 },
      cacheHit: true,
      previewUrl: 'http://127.0.0.1:5001/',
      tests: { status: 'failed', command: 'npm test' },
      repairs: [],
    });
  });

  it("carries ScanBot's diagnosis and RepairBot's repairs (id, code, summary, files, status)", () => {
    const failed = makeBuild({
      id: 'b8',
      stages: [['build-failed', 50]],
      error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
      diagnosis: MISSING,
      repairs: [PROPOSED],
    });
    const result = toBuildResult(failed);
    expect(result.diagnosis).toEqual(MISSING);
    expect(result.repairs).toEqual([
      {
        id: 'r_1',
        code: 'ADD_MISSING_PACKAGES',
        summary: 'add canvas-confetti@^1.9.3 to package.json',
        files: ['package.json'],
        status: 'proposed',
      },
    ]);
    expect(CliResult.parse(result)).toEqual(result);
  });
});

describe('toBuildResult for a build that did not succeed', () => {
  it('carries the record’s error with the catalogue’s hint, or one in its place, and validates against the shared schema', () => {
    const failed = makeBuild({
      stages: [['build-failed', 50]],
      error: { code: 'BUILD_FAILED', message: 'exit 1' },
    });
    expect(toBuildResult(failed)).toMatchObject({ status: 'failed', stage: 'build-failed' });
    expect(toBuildResult(failed).error).toEqual({
      code: 'BUILD_FAILED',
      message: 'exit 1',
      hint: expect.stringContaining('forge logs <build>'),
      logCommand: 'forge logs b1',
    });
    const cancelled = makeBuild({ stages: [['idle', 50]], cancelReason: 'superseded' });
    expect(toBuildResult(cancelled)).toMatchObject({ status: 'cancelled', stage: 'idle' });
    expect(toBuildResult(cancelled).error).toEqual({
      code: 'CANCELLED',
      message: 'The build was cancelled (superseded).',
      logCommand: 'forge logs b1',
    });
    // Still running when the wait ended: only the wait's error.
    const running = makeBuild({ stages: [['build-start', 10]] });
    expect(toBuildResult(running).error).toBeUndefined();
    const waited = toBuildResult(running, { code: 'WAIT_TIMEOUT', message: 'gave up' });
    expect(waited.error).toEqual({ code: 'WAIT_TIMEOUT', message: 'gave up' });
    for (const result of [toBuildResult(finished), toBuildResult(failed), toBuildResult(cancelled), waited]) {
      expect(CliResult.parse(result)).toEqual(result);
    }
  });
});

describe('toBuildResult for a failure that printed its first error line', () => {
  it('carries the first line, its place as file:line:col, the probable cause and the log command', () => {
    const failed = makeBuild({
      id: 'b12',
      stages: [['build-failed', 50]],
      error: {
        code: 'BUILD_FAILED',
        message: 'npm run build exited with code 1',
        firstLine: 'app/layout.tsx: `next/font` error: Failed to fetch `Inter` from Google Fonts.',
        tail: ['Failed to compile.', '', '> Build failed because of webpack errors'],
        probableCause: 'This was probably caused by the Node version: the project asks for Node 22.',
      },
    });
    const result = toBuildResult(failed);
    expect(result.error).toEqual({
      code: 'BUILD_FAILED',
      message: 'npm run build exited with code 1',
      firstLine: 'app/layout.tsx: `next/font` error: Failed to fetch `Inter` from Google Fonts.',
      probableCause: 'This was probably caused by the Node version: the project asks for Node 22.',
      hint: expect.any(String),
      logCommand: 'forge logs b12',
    });
    const placed = makeBuild({
      stages: [['build-failed', 50]],
      error: {
        code: 'BUILD_FAILED',
        message: 'exit 2',
        firstLine: "error TS2322: Type 'number' is not assignable to type 'string'.",
        location: { file: 'src/app.ts', line: 3, column: 7 },
      },
    });
    expect(toBuildResult(placed).error).toMatchObject({ location: 'src/app.ts:3:7' });
    expect(CliResult.parse(result)).toEqual(result);
  });
});

describe('buildExitCode', () => {
  it('is 0 succeeded, 1 failed or interrupted, 4 timed out, 5 cancelled', () => {
    expect(buildExitCode('succeeded')).toBe(0);
    expect(buildExitCode('failed')).toBe(1);
    expect(buildExitCode('interrupted')).toBe(1);
    expect(buildExitCode('timed-out')).toBe(4);
    expect(buildExitCode('cancelled')).toBe(5);
  });
});

describe('formatStageLine', () => {
  it('shows the time since the build was created and the stage label', () => {
    expect(formatStageLine({ stage: 'extraction', at: at(120) }, finished, plain)).toBe(
      '   +120ms  Extracting',
    );
    expect(formatStageLine({ stage: 'build-success', at: at(3_400) }, finished, plain)).toBe(
      '    +3.4s  Build Complete',
    );
    expect(formatStageLine({ stage: 'build-failed', at: at(3_400) }, finished, colour)).toContain(
      '\u001b[31mBuild Failed\u001b[39m',
    );
  });
});

const MISSING = {
  code: 'MISSING_PACKAGE' as const,
  summary: 'src/main.ts imports canvas-confetti, which package.json does not declare.',
  file: 'src/main.ts',
  line: 2,
  column: 22,
  suggestion: 'Add it to the dependencies (forge fix applies it).',
};
const PROPOSED = {
  id: 'r_1',
  code: 'ADD_MISSING_PACKAGES' as const,
  summary: 'add canvas-confetti@^1.9.3 to package.json',
  files: ['package.json'],
  status: 'proposed' as const,
  diff: '--- a/package.json\n+++ b/package.json\n',
  at: at(40),
  buildId: 'b8',
};

describe('formatBuildSummary', () => {
  it('lists status, steps with bots and times, the bots’ reports and the preview', () => {
    const text = formatBuildSummary(finished, plain).join('\n');
    expect(text).toContain('Build succeeded: shop, build b7 in 3.5s (cache hit)');
    // A build a `forge worker` ran says which; the daemon's own ("local") says nothing more.
    expect(formatBuildSummary({ ...finished, worker: 'ci-2' }, plain)[0]).toBe(
      'Build succeeded: shop, build b7 on ci-2 in 3.5s (cache hit)',
    );
    expect(formatBuildSummary({ ...finished, worker: 'local' }, plain)[0]).toBe(
      'Build succeeded: shop, build b7 in 3.5s (cache hit)',
    );
    expect(text).toMatch(/^ {2}STEP +BOT +TIME +RESULT +DETAIL$/m);
    expect(text).toMatch(/^ {2}install +DependencyBot +30ms +cached +npm ci: reused node_modules$/m);
    expect(text).toMatch(/^ {2}test +TestBot +- +skipped$/m);
    expect(text).toMatch(/^ {2}tests +failed \(npm test\) in 900ms$/m);
    expect(text).toMatch(/^ {2}ui check +missing assets: \/app\.js$/m);
    expect(text).toMatch(/^ {2}output +2 files, 146 KB \(gzip 48\.8 KB\); 1 over 97\.7 KB$/m);
    expect(text).toMatch(/^ {2}preview +http:\/\/127\.0\.0\.1:5001\/$/m);
    expect(text).not.toContain('\u001b');
  });

  it('shows the error of a failed build with what to do, and strips escape codes coming from the project', () => {
    const failed = makeBuild({
      stages: [['build-failed', 10]],
      error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1\u001b[2J' },
    });
    const lines = formatBuildSummary(failed, plain);
    expect(lines[0]).toBe('Build failed: site, build b1 in 10ms');
    expect(lines).toContain('  error  npm run build exited with code 1 [BUILD_FAILED]');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}hint {3}The first error in the build output/));
    expect(lines).toContain('  log    forge logs b1');
  });

  it("after the error: ScanBot's diagnosis, where, what to do, and how to apply the proposed repair", () => {
    const failed = makeBuild({
      id: 'b8',
      stages: [['build-failed', 10]],
      error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
      diagnosis: MISSING,
      repairs: [PROPOSED],
    });
    const lines = formatBuildSummary(failed, plain);
    const at = lines.indexOf('  error      npm run build exited with code 1 [BUILD_FAILED]');
    expect(at, lines.join('\n')).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 6)).toEqual([
      `  diagnosis  ${MISSING.summary} [MISSING_PACKAGE]`,
      '  at         src/main.ts:2:22',
      '  fix        Add it to the dependencies (forge fix applies it).',
      '  repair     Run forge fix b8 to apply: add canvas-confetti@^1.9.3 to package.json',
      expect.stringMatching(/^ {2}hint {7}The first error/),
    ]);
    expect(formatBuildSummary(failed, colour).join('\n')).toContain(`\u001b[33m${MISSING.summary}`);
  });

  it('a build that succeeded after RepairBot repaired it says what was changed', () => {
    const repaired = {
      ...finished,
      repairs: [
        {
          ...PROPOSED,
          status: 'applied' as const,
          summary: 'RepairBot added canvas-confetti@^1.9.3 to package.json',
        },
      ],
    };
    expect(formatBuildSummary(repaired, plain)).toContain(
      '  repaired  RepairBot added canvas-confetti@^1.9.3 to package.json',
    );
  });

  it('puts the first error line with its place before the message, then the hint and the log command', () => {
    const failed = makeBuild({
      id: 'b3',
      stages: [['build-failed', 10]],
      error: {
        code: 'BUILD_FAILED',
        message: 'npm run build exited with code 2',
        firstLine: "error TS2322: Type 'number' is not assignable to type 'string'.",
        location: { file: 'src/app.ts', line: 3, column: 7 },
        tail: ['checking 2 files…'],
      },
    });
    const lines = formatBuildSummary(failed, plain);
    const at = lines.indexOf(
      "  error  src/app.ts:3:7  error TS2322: Type 'number' is not assignable to type 'string'.",
    );
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 4)).toEqual([
      '         npm run build exited with code 2 [BUILD_FAILED]',
      expect.stringMatching(/^ {2}hint {3}The first error/),
      '  log    forge logs b3',
    ]);
    // The tail is in the log; the first line already says what failed.
    expect(lines.join('\n')).not.toContain('checking 2 files');
  });

  it('without a first error line, shows the reason and the last lines of the output, one per line', () => {
    const tail = Array.from({ length: 20 }, (_, i) => `warming up ${i + 11}`);
    const failed = makeBuild({
      id: 'b4',
      stages: [['build-failed', 10]],
      error: {
        code: 'PREVIEW_FAILED',
        message: 'The app did not listen on a port within 30 s (it was given PORT=41235); it was stopped.',
        tail,
      },
    });
    const lines = formatBuildSummary(failed, plain);
    const at = lines.indexOf(
      '  error   The app did not listen on a port within 30 s (it was given PORT=41235); it was stopped. [PREVIEW_FAILED]',
    );
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 21)).toEqual(
      tail.map((line, i) => `  ${i === 0 ? 'output' : '      '}  ${line}`),
    );
  });
});

describe('formatLogLine', () => {
  const line = { timestamp: new Date(2026, 0, 2, 3, 4, 5).toISOString(), botName: 'BuildBot', text: 'built' };

  it('prints HH:MM:SS LEVEL BotName text in local time', () => {
    expect(formatLogLine({ ...line, level: 'success' }, plain)).toBe('03:04:05 SUCCESS BuildBot built');
    expect(formatLogLine({ ...line, level: 'info', botName: 'UiBot', text: 'ok' }, plain)).toBe(
      '03:04:05 INFO    UiBot ok',
    );
  });

  it('removes escape sequences and control characters; a carriage return keeps what was drawn last', () => {
    const printed = formatLogLine(
      {
        timestamp: 'not a date',
        level: 'error',
        botName: 'BuildBot',
        text: '\u001b[31mred\u001b[0m\tok\u0007',
      },
      plain,
    );
    expect(printed).toBe('--:--:-- ERROR   BuildBot red  ok');
    expect(formatLogLine({ ...line, level: 'info', text: '10%\r50%\r100%' }, plain)).toMatch(/ 100%$/);
  });

  it('as JSON is the stored entry (id, seq …); a line never stored has neither', () => {
    const stored = { ...line, key: 's7', seq: 7, level: 'warn' as const };
    expect(logLineJson('b1', stored)).toEqual({
      id: 'b1:7',
      seq: 7,
      timestamp: line.timestamp,
      level: 'warn',
      botName: 'BuildBot',
      message: 'built',
    });
    expect(logLineJson('b1', { ...stored, key: 'l1', seq: null })).not.toHaveProperty('seq');
  });
});

describe('formatBuildsTable', () => {
  it('has one aligned row per build, with the stage label and where it ran', () => {
    const running = makeBuild({
      id: 'b8',
      projectName: 'blog',
      stages: [['build-start', 10]],
      worker: 'ci-2',
    });
    const queued = makeBuild({ id: 'b9', projectName: 'docs' });
    const lines = formatBuildsTable([queued, running, { ...finished, worker: 'local' }], plain);
    expect(lines[0]).toMatch(/^ID +PROJECT +STATUS +STAGE +CACHE +DURATION +WORKER +CREATED$/);
    expect(lines[1]).toMatch(/^b9 +docs +queued +Starting +- +- +- +\d{4}-/);
    expect(lines[2]).toMatch(/^b8 +blog +running +Building +- +- +ci-2 +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(lines[3]).toMatch(/^b7 +shop +succeeded +Integration Available +hit +3\.5s +local +\d{4}-/);
    // Columns line up: STATUS starts at the same offset in every row.
    const col = lines[0]!.indexOf('STATUS');
    expect(lines[2]!.indexOf('running')).toBe(col);
    expect(lines[3]!.indexOf('succeeded')).toBe(col);
    expect(lines[2]!.indexOf('ci-2')).toBe(lines[0]!.indexOf('WORKER'));
  });

  it('colours statuses only when asked, without breaking the alignment', () => {
    const lines = formatBuildsTable([finished], colour);
    expect(lines[1]).toContain('\u001b[32msucceeded\u001b[39m');
    // eslint-disable-next-line no-control-regex
    expect(lines[1]!.replace(/\u001b\[\d+m/g, '')).toBe(formatBuildsTable([finished], plain)[1]);
  });
});
