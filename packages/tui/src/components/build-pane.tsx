import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import {
  buildStatusLevel,
  errorHint,
  formatDuration,
  frameworkWithStack,
  formatTestCounts,
  diagnosedPlace,
  isFinished,
  otherErrors,
  testsVerdict,
  verdictFails,
  type Build,
  type BuildError,
  type Diagnosis,
  type LogLevel,
  type ToolError,
} from '@forge/shared';
import { useBuild } from '../hooks/use-build.tsx';
import { useNow } from '../hooks/use-now.ts';
import {
  buildElapsed,
  buildTimeline,
  rowDuration,
  type RowState,
  type TimelineRow,
} from '../lib/timeline.ts';
import type { DisplayRow } from '../lib/display-rows.ts';
import { paneInnerColumns, paneInnerRows, scrollWindow } from '../lib/layout.ts';
import { buildWorkerText } from '../lib/workers.ts';
import { Pane, ScrolledHint } from './pane.tsx';

/**
 * Wide, the timeline (stages and their steps) is a column left of the output; narrow, the stages
 * go on one line above it, so the output keeps the width.
 */
const isNarrow = (width: number) => paneInnerColumns(width) < 70;

/**
 * A failure takes two info lines (the first error line, then the message and where the full log
 * is), ScanBot's diagnosis one more (and one for its suggestion), RepairBot's repairs one.
 */
const infoRows = (build: Build | null | undefined): number =>
  (failureOf(build) ? 2 : 1) +
  toolErrorRowCount(failureOf(build)) +
  diagnosisRowCount(diagnosisOf(build)) +
  (repairsOf(build).length > 0 ? 1 : 0);

/** Tool errors listed one by one in the pane; the rest are counted on one line (forge logs lists them all). */
const PANE_LISTED_ERRORS = 5;

/** The errors of a failure that printed several (one is the first error line already), else []. */
const toolErrorsOf = (error: BuildError | null): ToolError[] =>
  error?.errors && Math.max(error.errorCount ?? 0, error.errors.length) > 1 ? error.errors : [];

/** A heading, the listed errors, and a line for the ones not listed. */
const toolErrorRowCount = (error: BuildError | null): number => {
  const errors = toolErrorsOf(error);
  if (errors.length === 0) return 0;
  const shown = Math.min(errors.length, PANE_LISTED_ERRORS);
  return 1 + shown + (Math.max(error!.errorCount ?? 0, errors.length) > shown ? 1 : 0);
};

/** The build's error when it failed (a cancel says so on one line of its own), else null. */
const failureOf = (build: Build | null | undefined): BuildError | null =>
  build?.error && build.status !== 'cancelled' && !build.previewUrl ? build.error : null;

/** ScanBot's reading of a build that ended without succeeding (not a cancel), else null. */
const diagnosisOf = (build: Build | null | undefined): Diagnosis | null =>
  build?.diagnosis && isFinished(build.status) && build.status !== 'succeeded' && build.status !== 'cancelled'
    ? build.diagnosis
    : null;

/** The diagnosis, its suggestion, and its other errors (a heading, each listed, the count of the rest). */
const diagnosisRowCount = (diagnosis: Diagnosis | null): number => {
  if (!diagnosis) return 0;
  const others = otherErrors(diagnosis);
  const otherRows = others ? 1 + others.listed.length + (others.more ? 1 : 0) : 0;
  return (diagnosis.suggestion ? 2 : 1) + otherRows;
};

/** The repairs made during the build or proposed for it (a build may succeed thanks to them). */
const repairsOf = (build: Build | null | undefined): NonNullable<Build['repairs']> =>
  build && isFinished(build.status) ? (build.repairs ?? []) : [];

/** Rows for the output: the pane's inner rows less the info line(s) (and the stage line when narrow). */
export const buildListRows = (height: number, width: number, build?: Build | null): number =>
  Math.max(0, paneInnerRows(height) - infoRows(build) - (isNarrow(width) ? 1 : 0));

/** "src/App.tsx:12:5". */
const placeOf = ({ file, line, column }: { file: string; line?: number; column?: number }) =>
  `${file}${line ? `:${line}${column ? `:${column}` : ''}` : ''}`;

const ROW_ICON: Record<RowState, { icon: string; color: string }> = {
  done: { icon: '✓', color: 'green' },
  current: { icon: '●', color: 'yellow' },
  failed: { icon: '✗', color: 'red' },
  cancelled: { icon: '⊘', color: 'yellow' },
  skipped: { icon: '–', color: 'gray' },
  cached: { icon: '↺', color: 'cyan' },
};

const LEVEL_COLOR: Record<LogLevel, string | undefined> = {
  error: 'red',
  warn: 'yellow',
  success: 'green',
  info: undefined,
};

/** A build's status in the colour of its level; queued and running (info) are in progress: yellow. */
const statusColor = (status: Build['status']): string => LEVEL_COLOR[buildStatusLevel(status)] ?? 'yellow';

function TimelineLine({ row, width }: { row: TimelineRow; width: number }) {
  const { icon, color } = ROW_ICON[row.state];
  const indent = row.kind === 'step' ? '  ' : '';
  const duration = rowDuration(row);
  const labelWidth = Math.max(1, width - indent.length - 2 - duration.length - 1);
  const label = row.label.length > labelWidth ? `${row.label.slice(0, labelWidth - 1)}…` : row.label;
  return (
    <Text wrap="truncate-end">
      {indent}
      <Text color={color}>{icon}</Text>{' '}
      <Text bold={row.kind === 'stage'} dimColor={row.kind === 'step'}>
        {label.padEnd(labelWidth)}
      </Text>{' '}
      <Text dimColor>{duration}</Text>
    </Text>
  );
}

/**
 * The stages on one line for a narrow pane, oldest cut first so the current one and where the build
 * runs always show: "… ✓ Extracted 34ms › ● Building 2.1s · on ci-2" (the title is cut before them).
 */
function TimelineStrip({ rows, worker }: { rows: TimelineRow[]; worker: string | null }) {
  const stages = rows.filter((row) => row.kind === 'stage');
  return (
    <Text wrap="truncate-start">
      {stages.map((row, i) => {
        const { icon, color } = ROW_ICON[row.state];
        const duration = rowDuration(row);
        return (
          <Text key={i}>
            {i > 0 ? <Text dimColor> › </Text> : ''}
            <Text color={color}>{icon}</Text> {row.label}
            {duration ? <Text dimColor> {duration}</Text> : ''}
          </Text>
        );
      })}
      {worker !== null && (
        <Text>
          <Text dimColor> · on</Text> {worker}
        </Text>
      )}
    </Text>
  );
}

function OutputText({ line }: { line: DisplayRow }) {
  return (
    <Text color={LEVEL_COLOR[line.level]} wrap="truncate-end">
      {line.text === '' ? ' ' : line.text}
    </Text>
  );
}

/**
 * Second line: the preview address once served, else that it was cancelled or what went wrong
 * (two lines: the first error line with its file:line, then the message and where the full log
 * is), else what is going on.
 */
/**
 * " · tests failed (1 failed, 2 passed)": the verdict of the build's tests once it has one (nothing
 * without tests). Red when it fails the verdict (forge ci exits 7), yellow when only reported.
 */
function TestsNote({ build }: { build: Build }) {
  const tests = testsVerdict(build);
  if (!tests || tests.status === 'none') return null;
  const color =
    tests.status === 'passed'
      ? 'green'
      : tests.status === 'failed'
        ? verdictFails(tests)
          ? 'red'
          : 'yellow'
        : 'yellow';
  const counts = tests.counts ? ` (${formatTestCounts(tests.counts)})` : '';
  return (
    <Text>
      <Text dimColor> · tests </Text>
      <Text color={color}>
        {tests.status}
        {counts}
      </Text>
    </Text>
  );
}

function InfoLine({ build }: { build: Build }) {
  if (build.previewUrl) {
    return (
      <Text wrap="truncate-end">
        <Text dimColor>Preview </Text>
        <Text color="green" underline>
          {build.previewUrl}
        </Text>
        <Text dimColor> (p opens it)</Text>
        <TestsNote build={build} />
      </Text>
    );
  }
  if (build.status === 'cancelled') {
    return (
      <Text color="yellow" wrap="truncate-end">
        Cancelled{build.cancelReason ? ` (${build.cancelReason})` : ''}
      </Text>
    );
  }
  const error = failureOf(build);
  if (error) {
    // First the line the tool printed (where it points first), then Forge's message, then the log.
    const fullLog = `full log: forge logs ${build.id} (↑↓ scroll the output)`;
    if (error.firstLine) {
      return (
        <>
          <Text color="red" wrap="truncate-end">
            ✗ {error.location ? <Text bold>{placeOf(error.location)} </Text> : ''}
            {error.firstLine}
          </Text>
          <Text wrap="truncate-end">
            {error.message}{' '}
            <Text dimColor>
              [{error.code}] · {fullLog}
            </Text>
          </Text>
        </>
      );
    }
    const hint = error.hint ?? errorHint(error.code);
    return (
      <>
        <Text wrap="truncate-end">
          <Text color="red">
            ✗ {error.code}: {error.message}
          </Text>
          {hint && <Text dimColor> — {hint}</Text>}
        </Text>
        <Text dimColor wrap="truncate-end">
          {fullLog}
        </Text>
      </>
    );
  }
  return (
    <Text dimColor wrap="truncate-end">
      {isFinished(build.status)
        ? 'No preview for this build.'
        : build.status === 'queued'
          ? 'Queued: the build starts when a build slot is free.'
          : 'Preview: when the build is ready.'}
    </Text>
  );
}

/**
 * Every error the failed step printed, when it printed several: the count and the tools, then one
 * line each (file:line:col, the tool's code, its message), the primary one — the first error line's
 * — marked and in red; past PANE_LISTED_ERRORS, how many more and where they all are.
 */
function ToolErrorLines({ error, buildId }: { error: BuildError; buildId: string }) {
  const errors = toolErrorsOf(error);
  const count = Math.max(error.errorCount ?? 0, errors.length);
  const shown = errors.slice(0, PANE_LISTED_ERRORS);
  const tools = [...new Set(errors.map((e) => e.tool))].join(', ');
  return (
    <>
      <Text dimColor wrap="truncate-end">
        {count} errors ({tools}):
      </Text>
      {shown.map((e, i) => (
        <Text key={i} color={e.primary ? 'red' : undefined} wrap="truncate-end">
          {e.primary ? '▶ ' : '  '}
          {e.file && <Text bold>{placeOf({ file: e.file, line: e.line, column: e.column })} </Text>}
          {e.code && <Text dimColor={!e.primary}>{e.code} </Text>}
          {e.message}
        </Text>
      ))}
      {count > shown.length && (
        <Text dimColor wrap="truncate-end">
          {'  '}… {count - shown.length} more: forge logs {buildId}
        </Text>
      )}
    </>
  );
}

/**
 * ScanBot's diagnosis of a failed build: the file:line it points at (project-relative) and what is
 * wrong, then on its own line what to do, then the failure's other errors as the CLI lists them.
 */
function DiagnosisLines({ diagnosis }: { diagnosis: Diagnosis }) {
  const place = diagnosedPlace(diagnosis);
  const others = otherErrors(diagnosis);
  return (
    <>
      <Text wrap="truncate-end">
        <Text color="yellow">ScanBot </Text>
        {place ? <Text bold>{place} </Text> : ''}
        {diagnosis.summary} <Text dimColor>[{diagnosis.code}]</Text>
      </Text>
      {diagnosis.suggestion && (
        <Text dimColor wrap="truncate-end">
          → {diagnosis.suggestion}
        </Text>
      )}
      {others && (
        <>
          <Text color="yellow" wrap="truncate-end">
            {others.heading}
          </Text>
          {others.listed.map(({ error, state, place: at }, i) => (
            <Text key={i} wrap="truncate-end">
              {'  '}
              <Text color={state === 'repairable' ? 'green' : 'red'}>{state}</Text>{' '}
              {at ? <Text bold>{at} </Text> : ''}
              {error.summary} <Text dimColor>[{error.code}]</Text>
            </Text>
          ))}
          {others.more && <Text dimColor>{`  ${others.more}`}</Text>}
        </>
      )}
    </>
  );
}

/**
 * RepairBot's repairs on one line: those made ("RepairBot added …"), in green; those proposed, with
 * the command that applies them; a failed one in red.
 */
function RepairLine({ build }: { build: Build }) {
  const repairs = repairsOf(build);
  const made = repairs.filter((r) => r.status === 'applied').map((r) => r.summary);
  // A proposal says what its trial on a copy of the project showed ("verified: the build passes").
  const proposed = repairs
    .filter((r) => r.status === 'proposed')
    .map((r) => (r.verification ? `${r.summary} (${r.verification.detail})` : r.summary));
  const failed = repairs.filter((r) => r.status === 'failed').map((r) => r.summary);
  const parts: ReactNode[] = [];
  if (made.length > 0)
    parts.push(
      <Text key="made" color="green">
        ✓ {made.join('; ')}
      </Text>,
    );
  if (failed.length > 0)
    parts.push(
      <Text key="failed" color="red">
        ✗ {failed.join('; ')}
      </Text>,
    );
  if (proposed.length > 0) {
    parts.push(
      <Text key="proposed">
        <Text color="yellow">Proposed: </Text>
        {proposed.join('; ')}{' '}
        <Text dimColor>
          · forge fix {build.id} applies {proposed.length > 1 ? 'them' : 'it'}
        </Text>
      </Text>,
    );
  }
  if (parts.length === 0)
    parts.push(
      <Text key="undone" dimColor>
        Repairs undone.
      </Text>,
    );
  return (
    <Text wrap="truncate-end">
      {parts.map((part, i) => (
        <Text key={i}>
          {i > 0 ? '  ' : ''}
          {part}
        </Text>
      ))}
    </Text>
  );
}

/**
 * The followed build: its project, id, status, where it runs ("on ci-2", "on local", "on —" while
 * queued; at the end of the stage line in a narrow pane) and time, cache hit, preview URL; on the
 * left the stage timeline with durations and the steps (bot jobs) under their stage, on the right
 * the live output, newest at the bottom, cut to the pane (↑/↓ scroll back when focused).
 */
export function BuildPane({
  width,
  height,
  focused,
  scroll,
}: {
  width: number;
  height: number;
  focused: boolean;
  scroll: number;
}) {
  const { build, buildId, error, output, project } = useBuild();
  const running = build !== null && !isFinished(build.status);
  const now = useNow(1_000, running);
  const columns = paneInnerColumns(width);

  if (!buildId) {
    return (
      <Pane title="Build" focused={focused} width={width} height={height}>
        <Text dimColor wrap="truncate-end">
          {project
            ? `No build of ${project} yet: press b to build it, or u to upload a ZIP.`
            : 'No build yet: press u to upload a project ZIP.'}
        </Text>
      </Pane>
    );
  }

  const narrow = isNarrow(width);
  const worker = build ? buildWorkerText(build) : null;
  const title = (
    <Text>
      Build <Text color="cyan">{build?.projectName || project || ''}</Text> <Text dimColor>{buildId}</Text>
      {build && (
        <>
          {' '}
          <Text color={statusColor(build.status)}>{build.status}</Text>{' '}
          {build.blueprint && !narrow && (
            <>
              <Text dimColor>{frameworkWithStack(build.blueprint)}</Text>{' '}
            </>
          )}
          {worker !== null && !narrow && (
            <>
              <Text dimColor>on</Text> {worker}{' '}
            </>
          )}
          <Text dimColor>{formatDuration(buildElapsed(build, now))}</Text>
        </>
      )}
    </Text>
  );
  const right = build ? (
    build.cacheHit ? (
      <Text color="cyan">cache hit</Text>
    ) : (
      <Text dimColor>{build.noCache ? 'cache off' : 'cache miss'}</Text>
    )
  ) : undefined;

  const listRows = buildListRows(height, width, build);
  const timelineWidth = Math.min(40, Math.max(30, Math.floor(columns * 0.38)));
  const timeline = build ? buildTimeline(build, now) : [];
  const timelineWindow = scrollWindow(timeline, listRows, 0, 'bottom');
  // Scrolled back from the newest line: the last row says how far, and how to get back.
  const scrolled = scroll > 0 && output.length > listRows;
  const outputWindow = scrollWindow(output, scrolled ? listRows - 1 : listRows, scroll, 'bottom');

  return (
    <Pane title={title} right={right} focused={focused} width={width} height={height}>
      {build ? (
        <>
          <InfoLine build={build} />
          {toolErrorsOf(failureOf(build)).length > 0 && (
            <ToolErrorLines error={failureOf(build)!} buildId={build.id} />
          )}
          {diagnosisOf(build) && <DiagnosisLines diagnosis={diagnosisOf(build)!} />}
          {repairsOf(build).length > 0 && <RepairLine build={build} />}
        </>
      ) : (
        <Text color={error ? 'red' : undefined} dimColor={!error} wrap="truncate-end">
          {error ?? 'Reading the build…'}
        </Text>
      )}
      {narrow && <TimelineStrip rows={timeline} worker={worker} />}
      <Box flexDirection="row" height={listRows} overflow="hidden">
        {!narrow && (
          <Box flexDirection="column" width={timelineWidth} flexShrink={0} marginRight={1}>
            {timelineWindow.visible.map((row, i) => (
              <TimelineLine key={`${timelineWindow.above + i}`} row={row} width={timelineWidth} />
            ))}
          </Box>
        )}
        <Box flexDirection="column" flexGrow={1} flexShrink={1} overflow="hidden">
          {output.length === 0 ? (
            <Text dimColor wrap="truncate-end">
              {build && isFinished(build.status) ? 'No output.' : 'Waiting for output…'}
            </Text>
          ) : (
            outputWindow.visible.map((line) => <OutputText key={line.key} line={line} />)
          )}
          {scrolled && <ScrolledHint above={outputWindow.above} below={outputWindow.below} />}
        </Box>
      </Box>
    </Pane>
  );
}
