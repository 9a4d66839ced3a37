import type { Build, BuildLogsResponse, LogLine } from '@forge/shared';
import { describe, expect, it } from 'vitest';
import { FakeDaemon, logEntry, makeBuild } from '../../test/fakes.ts';
import { createBuildStore, trackBuild } from './build-tracker.ts';
import { readStoredLog } from './build-watch.ts';
import { formatLogLine, logLineJson } from './format-log.ts';
import type { BuildSource } from './source.ts';
import { printStoredLog } from './stored-log.ts';

type Source = Pick<BuildSource, 'getLogs'>;

/** A line as `forge logs` prints it, and as `forge logs --json` does. */
const printed = (buildId: string, line: LogLine) =>
  `${formatLogLine(line, (_tone, text) => text)} | ${JSON.stringify(logLineJson(buildId, line))}`;

/** What `forge logs` printed before the read path: the client store, the tracker, readStoredLog. */
async function viaStore(source: Source, build: Build, pageSize: number): Promise<string[]> {
  const out: string[] = [];
  const store = createBuildStore();
  store.dispatch({ type: 'build-record', build });
  const tracker = trackBuild(store, build.id, {
    onLine: (line) => out.push(printed(build.id, line)),
    onCapped: () => out.push('(capped)'),
  });
  await readStoredLog(source, store, build.id, tracker, pageSize);
  tracker.close();
  return out;
}

async function viaPrinter(source: Source, build: Build, pageSize: number): Promise<string[]> {
  const out: string[] = [];
  await printStoredLog(
    source,
    build,
    { onLine: (line) => out.push(printed(build.id, line)), onCapped: () => out.push('(capped)') },
    pageSize,
  );
  return out;
}

/** A daemon whose pages are given as they are (unsorted, repeated, with gaps). */
const pagesOf = (pages: BuildLogsResponse[]): Source => {
  let n = 0;
  return { getLogs: async () => pages[Math.min(n++, pages.length - 1)]! };
};

describe('printStoredLog prints what the client store printed for a build not followed', () => {
  it.each([
    ['no lines', 0, false, false],
    ['a few lines', 3, false, false],
    ['lines over several pages', 25, false, false],
    ['a log the cap cut, as the record says', 25, true, true],
    ['a log the cap cut, as only the last page says', 25, false, true],
  ])('%s', async (_what, lines, recordTruncated, pageTruncated) => {
    const daemon = new FakeDaemon();
    for (let i = 0; i < lines; i++) daemon.store(`line ${i + 1}\twith a tab\nand a newline`);
    daemon.build.logTruncated = recordTruncated;
    daemon.truncated = pageTruncated;
    const expected = await viaStore(daemon, daemon.build, 10);
    expect(await viaPrinter(daemon, daemon.build, 10)).toEqual(expected);
    expect(expected.filter((l) => l !== '(capped)')).toHaveLength(lines);
    expect(expected.includes('(capped)')).toBe(recordTruncated || pageTruncated);
  });

  it('pages with lines out of order, repeated, or past a gap', async () => {
    const build = makeBuild({ logCount: 6 });
    const pages: BuildLogsResponse[] = [
      { entries: [logEntry(2), logEntry(1), logEntry(2, 'again')], truncated: false, next: 2 },
      { entries: [logEntry(3), logEntry(5), logEntry(6)], truncated: false, next: 6 },
      { entries: [], truncated: false, next: 6 },
    ];
    const expected = await viaStore(pagesOf(pages), build, 3);
    expect(await viaPrinter(pagesOf(pages), build, 3)).toEqual(expected);
    // Line 4 never came: 5 and 6 are held, as the store holds them.
    expect(expected.map((l) => (JSON.parse(l.split(' | ')[1]!) as { seq: number }).seq)).toEqual([1, 2, 3]);
  });
});
