import { Box, Text } from 'ink';
import type { BotInfo } from '@forge/shared';
import type { FleetState } from '../hooks/use-fleet.ts';
import { useForge } from '../hooks/use-forge.tsx';
import { activityColor, botColor, groupFleet, type FleetGroup } from '../lib/fleet.ts';
import { paneInnerColumns, paneInnerRows, scrollWindow } from '../lib/layout.ts';
import { moreText, Pane } from './pane.tsx';

export type FleetRow =
  | { kind: 'group'; group: FleetGroup }
  | { kind: 'bot'; bot: BotInfo }
  /** Several bots on one line, by name and coloured dot only (the dense layout). */
  | { kind: 'pack'; bots: BotInfo[]; key: string };

/** How the fleet fits its pane: one bot a line, names packed on lines, or only busy bots. */
export type FleetMode = 'full' | 'dense' | 'busy';

/** Indent of the bot lines under their category. */
const INDENT = 2;

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
 * The rows the pane lists in `rows` lines of `columns`: every bot on its own line with its status
 * or job when they fit; else the names packed several to a line (status by colour); else the
 * categories and only the bots that are busy or failing, the ones worth a look.
 */
export function fleetRows(
  bots: readonly BotInfo[],
  rows: number,
  columns: number,
): { rows: FleetRow[]; mode: FleetMode } {
  const groups = groupFleet(bots);
  const full: FleetRow[] = groups.flatMap((group) => [
    { kind: 'group' as const, group },
    ...group.bots.map((bot) => ({ kind: 'bot' as const, bot })),
  ]);
  if (full.length <= rows) return { rows: full, mode: 'full' };
  const dense: FleetRow[] = groups.flatMap((group) => [
    { kind: 'group' as const, group },
    ...pack(group, columns),
  ]);
  if (dense.length <= rows) return { rows: dense, mode: 'dense' };
  return {
    rows: full.filter((r) => r.kind === 'group' || (r.kind === 'bot' && r.bot.status !== 'active')),
    mode: 'busy',
  };
}

/** Lines left for the list once a loading or error line is shown. */
export const fleetListRows = (height: number, fleet: FleetState): number =>
  Math.max(0, paneInnerRows(height) - (fleet.error || fleet.bots === null ? 1 : 0));

/** Room for the longest bot name (OptimizationBot) and a space. */
const NAME_WIDTH = 16;

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
 * and current job; shorter panes pack the names or list only busy bots (see fleetRows), and ↑/↓
 * scroll it when focused.
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
  const { bots, error } = fleet;
  const { status } = useForge();
  const listRows = fleetListRows(height, fleet);
  const { rows, mode } = fleetRows(bots ?? [], listRows, paneInnerColumns(width));
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
          return <BotRow key={`b:${row.bot.name}`} bot={row.bot} />;
        })}
      </Box>
    </Pane>
  );
}
