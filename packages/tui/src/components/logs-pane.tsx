import { Box, Text } from 'ink';
import { formatClock, LOG_FILTERS, matchesLogFilter, type LogFilter, type LogLevel } from '@forge/shared';
import { useLogs } from '../hooks/use-logs.ts';
import type { ConsoleRow as Row } from '../lib/display-rows.ts';
import { paneInnerColumns, paneInnerRows, scrollWindow } from '../lib/layout.ts';
import { Pane, ScrolledHint } from './pane.tsx';

const LEVEL_COLOR: Record<LogLevel, string> = {
  error: 'red',
  warn: 'yellow',
  success: 'green',
  info: 'blue',
};

/** Wide enough for SUCCESS, the longest level. */
const LEVEL_WIDTH = 7;
const BOT_WIDTH = 16;

function ConsoleRow({ line }: { line: Row }) {
  return (
    <Text wrap="truncate-end">
      <Text dimColor>{formatClock(line.timestamp)}</Text>{' '}
      <Text color={LEVEL_COLOR[line.level]}>{line.level.toUpperCase().padEnd(LEVEL_WIDTH)}</Text>{' '}
      <Text dimColor>{line.botName.slice(0, BOT_WIDTH - 1).padEnd(BOT_WIDTH)}</Text>
      {line.text === '' ? ' ' : line.text}
    </Text>
  );
}

/** Columns the full list of filters takes in the title. */
const TABS_WIDTH = LOG_FILTERS.reduce((n, name) => n + name.length + 3, 0);

/**
 * The filter names with the active one highlighted, as the FixIt console's filter buttons; only the
 * active one when the pane is narrow.
 */
function FilterTabs({ filter, compact }: { filter: LogFilter; compact: boolean }) {
  if (compact) {
    return (
      <Text>
        <Text dimColor>f </Text>
        <Text color="cyan" inverse>{` ${filter} `}</Text>
      </Text>
    );
  }
  return (
    <Text>
      {LOG_FILTERS.map((name, i) => (
        <Text key={name}>
          {i > 0 ? ' ' : ''}
          {name === filter ? (
            <Text color="cyan" inverse>{` ${name} `}</Text>
          ) : (
            <Text dimColor>{` ${name} `}</Text>
          )}
        </Text>
      ))}
    </Text>
  );
}

/**
 * The FixIt console: every log line, build output line, stage and build end the daemon sends,
 * filtered by level (`f` cycles all → error → warn → success → info), newest at the bottom.
 */
export function LogsPane({
  width,
  height,
  focused,
  scroll,
  filter,
}: {
  width: number;
  height: number;
  focused: boolean;
  scroll: number;
  filter: LogFilter;
}) {
  const lines = useLogs();
  const shown = lines.filter((line) => matchesLogFilter(line.level, filter));
  const rows = paneInnerRows(height);
  const scrolled = scroll > 0 && shown.length > rows;
  const window = scrollWindow(shown, scrolled ? rows - 1 : rows, scroll, 'bottom');
  return (
    <Pane
      title={
        <Text>
          Logs{' '}
          <Text dimColor>
            {shown.length === lines.length ? lines.length : `${shown.length}/${lines.length}`}
          </Text>
        </Text>
      }
      right={<FilterTabs filter={filter} compact={paneInnerColumns(width) < TABS_WIDTH + 16} />}
      focused={focused}
      width={width}
      height={height}
    >
      <Box flexDirection="column">
        {shown.length === 0 ? (
          <Text dimColor wrap="truncate-end">
            {lines.length === 0 ? 'No log lines yet.' : `No ${filter} lines (f changes the filter).`}
          </Text>
        ) : (
          window.visible.map((line) => <ConsoleRow key={line.key} line={line} />)
        )}
        {scrolled && <ScrolledHint above={window.above} below={window.below} />}
      </Box>
    </Pane>
  );
}
