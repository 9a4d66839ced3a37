import { Box, Text } from 'ink';
import type { BotInfo, WorkerInfo } from '@forge/shared';
import type { FleetState } from '../hooks/use-fleet.ts';
import { useForge } from '../hooks/use-forge.tsx';
import { useNow } from '../hooks/use-now.ts';
import { activityColor, botColor, groupFleet, type FleetGroup } from '../lib/fleet.ts';
import { paneInnerColumns, paneInnerRows, scrollWindow } from '../lib/layout.ts';
import {
  formatAgo,
  IN_PROCESS_TEXT,
  noWorkersHint,
  workerColor,
  wrapWords,
  type WorkersView,
} from '../lib/workers.ts';
import { moreText, Pane } from './pane.tsx';

export type FleetRow =
  | { kind: 'group'; group: FleetGroup }
  | { kind: 'bot'; bot: BotInfo }
  /** Several bots on one line, by name and coloured dot only (the dense layout). */
  | { kind: 'pack'; bots: BotInfo[]; key: string }
  /** The workers' heading: how many are online, and the queue. */
  | { kind: 'workers'; view: WorkersView }
  /** A worker, its name and job count padded to the widest of the list so the columns line up. */
  | { kind: 'worker'; worker: WorkerInfo; nameWidth: number; jobsWidth: number }
  /** A line of text: an explanation (dim) or why the workers could not be read (red). */
  | { kind: 'note'; key: string; text: string; tone: 'dim' | 'error'; indent: number };

/** How the fleet fits its pane: one bot a line, names packed on lines, or only busy bots. */
export type FleetMode = 'full' | 'dense' | 'busy';

/** Indent of the bot lines under their category. */
const INDENT = 2;

/** Room for the longest bot name (OptimizationBot) and a space; worker names are cut there too. */
const NAME_WIDTH = 16;

/** Builds a worker runs now, of those it runs at once at most: "1/4". */
const jobsText = (worker: WorkerInfo) => `${worker.running.length}/${worker.concurrency}`;

/** The bots of a group as lines of "● Name" tokens that fit `columns`. */
function pack(group: FleetGroup, columns: number): FleetRow[] {
  const lines: BotInfo[][] = [];
  let width = Infinity;
  for (const bot of group.bots) {
    const token = bot.name.length + 3; // "● " + name + a space
    if (width + token > columns - INDENT + 1 || lines.length === 0) {
      lines.push([]);
      width = 0;
    }
    lines.at(-1)!.push(bot);
    width += token;
  }
  return lines.map((bots, i) => ({ kind: 'pack' as const, bots, key: `${group.category}:${i}` }));
}

/**
 * The scale-out rows under the bots: an in-process queue without workers is one dim sentence;
 * otherwise a heading, why the workers could not be read, how to start one when a bullmq queue has
 * none, and a line per worker. Explanations wrap (a command cut short is of no use); nothing at all
 * for a daemon that does not say (older than scale-out).
 */
export function workerRows(view: WorkersView | null, columns: number): FleetRow[] {
  if (!view) return [];
  const note = (key: string, text: string, indent: number): FleetRow[] =>
    wrapWords(text, columns - indent).map((line, i) => ({
      kind: 'note' as const,
      key: `${key}:${i}`,
      text: line,
      tone: 'dim' as const,
      indent,
    }));
  const { list, queue, error } = view;
  if (list.length === 0 && queue === 'in-process' && !error) return note('in-process', IN_PROCESS_TEXT, 0);

  const rows: FleetRow[] = [{ kind: 'workers', view }];
  // One line, like the bots' error: the last known workers stay below it.
  if (error) rows.push({ kind: 'note', key: 'error', text: error, tone: 'error', indent: INDENT });
  if (list.length === 0 && queue === 'bullmq') rows.push(...note('hint', noWorkersHint(view), INDENT));
  const nameWidth = Math.min(NAME_WIDTH, Math.max(0, ...list.map((w) => w.name.length)));
  const jobsWidth = Math.max(0, ...list.map((w) => jobsText(w).length));
  for (const worker of list) rows.push({ kind: 'worker', worker, nameWidth, jobsWidth });
  return rows;
}

/**
 * The rows the pane lists in `rows` lines of `columns`: every bot on its own line with its status
 * or job when they fit; else the names packed several to a line (status by colour); else the
 * categories and only the bots that are busy or failing, the ones worth a look. The workers (a
 * handful, and where builds run) come after the bots in full in every mode: the bots give way first.
 */
export function fleetRows(
  bots: readonly BotInfo[],
  rows: number,
  columns: number,
  workers: WorkersView | null = null,
): { rows: FleetRow[]; mode: FleetMode } {
  const tail = workerRows(workers, columns);
  const room = rows - tail.length;
  const groups = groupFleet(bots);
  const full: FleetRow[] = groups.flatMap((group) => [
    { kind: 'group' as const, group },
    ...group.bots.map((bot) => ({ kind: 'bot' as const, bot })),
  ]);
  if (full.length <= room) return { rows: [...full, ...tail], mode: 'full' };
  const dense: FleetRow[] = groups.flatMap((group) => [
    { kind: 'group' as const, group },
    ...pack(group, columns),
  ]);
  if (dense.length <= room) return { rows: [...dense, ...tail], mode: 'dense' };
  return {
    rows: [
      ...full.filter((r) => r.kind === 'group' || (r.kind === 'bot' && r.bot.status !== 'active')),
      ...tail,
    ],
    mode: 'busy',
  };
}

/** Lines left for the list once a loading or error line is shown. */
export const fleetListRows = (height: number, fleet: FleetState): number =>
  Math.max(0, paneInnerRows(height) - (fleet.error || fleet.bots === null ? 1 : 0));

/** "● Workers 2/3 online bullmq": the dot red when one is lost, green when all answer. */
function WorkersRow({ view }: { view: WorkersView }) {
  const online = view.list.filter((w) => w.status === 'online').length;
  const total = view.list.length;
  const color = online < total ? 'red' : total > 0 ? 'green' : 'gray';
  return (
    <Text wrap="truncate-end">
      <Text color={color}>●</Text> <Text bold>Workers</Text>
      {total > 0 && (
        <Text dimColor>
          {' '}
          {online}/{total} online
        </Text>
      )}
      {view.queue && <Text dimColor> {view.queue}</Text>}
    </Text>
  );
}

/**
 * A worker: name, builds running of its concurrency, status in its colour and when it was last
 * heard from, then its host (cut first in a narrow pane).
 */
function WorkerRow({ row, now }: { row: Extract<FleetRow, { kind: 'worker' }>; now: number }) {
  const { worker, nameWidth, jobsWidth } = row;
  const color = workerColor(worker.status);
  const name = worker.name.length > nameWidth ? `${worker.name.slice(0, nameWidth - 1)}…` : worker.name;
  const jobs = jobsText(worker);
  return (
    <Text wrap="truncate-end">
      {' '.repeat(INDENT)}
      <Text color={color}>●</Text> {name.padEnd(nameWidth)}{' '}
      <Text dimColor={worker.running.length === 0}>{jobs.padStart(jobsWidth)}</Text>{' '}
      <Text color={color}>{worker.status.padEnd(6)}</Text>{' '}
      <Text dimColor>{formatAgo(worker.lastSeen, now)}</Text> <Text dimColor>{worker.host}</Text>
    </Text>
  );
}

function NoteRow({ row }: { row: Extract<FleetRow, { kind: 'note' }> }) {
  return (
    <Text wrap="truncate-end" color={row.tone === 'error' ? 'red' : undefined} dimColor={row.tone === 'dim'}>
      {' '.repeat(row.indent)}
      {row.text}
    </Text>
  );
}

function GroupRow({ group }: { group: FleetGroup }) {
  return (
    <Text wrap="truncate-end">
      <Text color={activityColor(group.status)}>●</Text> <Text bold>{group.label}</Text>{' '}
      <Text dimColor>
        {group.healthy}/{group.bots.length}
      </Text>{' '}
      <Text color={activityColor(group.status)}>{group.status}</Text>
    </Text>
  );
}

/** Several bots on a line, by name, each status told by its dot's colour. */
function PackRow({ bots }: { bots: BotInfo[] }) {
  return (
    <Text wrap="truncate-end">
      {' '.repeat(INDENT)}
      {bots.map((bot, i) => (
        <Text key={bot.name}>
          {i > 0 ? ' ' : ''}
          <Text color={botColor(bot.status)}>●</Text> {bot.name}
        </Text>
      ))}
    </Text>
  );
}

/** A bot: its status in its colour, and while it has one, the job it runs instead of "building". */
function BotRow({ bot }: { bot: BotInfo }) {
  const color = botColor(bot.status);
  return (
    <Text wrap="truncate-end">
      {' '.repeat(INDENT)}
      <Text color={color}>●</Text> {bot.name.padEnd(NAME_WIDTH)}
      {bot.currentJob ? <Text color={color}>{bot.currentJob}</Text> : <Text color={color}>{bot.status}</Text>}
    </Text>
  );
}

/**
 * The 25 bots by category, with each category's healthy count and status and each bot's status
 * and current job, then the scale-out workers; shorter panes pack the names or list only busy bots
 * (see fleetRows), and ↑/↓ scroll it when focused.
 */
export function FleetPane({
  fleet,
  width,
  height,
  focused,
  scroll,
}: {
  fleet: FleetState;
  width: number;
  height: number;
  focused: boolean;
  scroll: number;
}) {
  const { bots, error, workers } = fleet;
  const { status } = useForge();
  // Last-seen times move on while a worker is listed.
  const now = useNow(1_000, (workers?.list.length ?? 0) > 0);
  const listRows = fleetListRows(height, fleet);
  const { rows, mode } = fleetRows(bots ?? [], listRows, paneInnerColumns(width), workers);
  const window = scrollWindow(rows, listRows, scroll, 'top');

  const busy = (bots ?? []).filter((b) => b.status === 'building').length;
  const failing = (bots ?? []).filter((b) => b.status === 'error').length;
  const summary = [busy ? `${busy} busy` : '', failing ? `${failing} failing` : '']
    .filter(Boolean)
    .join(' · ');
  const more = moreText(window.above, window.below);

  return (
    <Pane
      title={`Fleet${bots ? ` · ${bots.length}` : ''}${mode === 'busy' ? ' · busy only' : ''}`}
      right={
        more ? (
          <Text dimColor>{more}</Text>
        ) : summary ? (
          <Text color={failing ? 'red' : 'yellow'}>{summary}</Text>
        ) : undefined
      }
      focused={focused}
      width={width}
      height={height}
    >
      {bots === null && (
        <Text color={error ? 'red' : undefined} dimColor={!error}>
          {error ?? (status === 'connected' ? 'Loading the fleet…' : 'Waiting for the daemon…')}
        </Text>
      )}
      {bots !== null && error && (
        <Text color="red" wrap="truncate-end">
          {error}
        </Text>
      )}
      <Box flexDirection="column">
        {window.visible.map((row) => {
          if (row.kind === 'group') return <GroupRow key={`g:${row.group.category}`} group={row.group} />;
          if (row.kind === 'pack') return <PackRow key={`p:${row.key}`} bots={row.bots} />;
          if (row.kind === 'workers') return <WorkersRow key="workers" view={row.view} />;
          if (row.kind === 'worker') return <WorkerRow key={`w:${row.worker.name}`} row={row} now={now} />;
          if (row.kind === 'note') return <NoteRow key={`n:${row.key}`} row={row} />;
          return <BotRow key={`b:${row.bot.name}`} bot={row.bot} />;
        })}
      </Box>
    </Pane>
  );
}
