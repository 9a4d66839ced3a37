import type { ReactNode } from 'react';
import { Box, Text } from 'ink';

export type PaneId = 'fleet' | 'build' | 'logs';

/**
 * A bordered pane with a title line. The focused pane (tab) has a cyan border and title and takes
 * the scroll keys. Its size is given, so every line inside is laid out to fit it exactly.
 */
export function Pane({
  title,
  right,
  focused,
  width,
  height,
  children,
}: {
  title: ReactNode;
  right?: ReactNode;
  focused: boolean;
  width: number;
  height: number;
  children: ReactNode;
}) {
  if (height < 3 || width < 4) return <Box width={width} height={height} />;
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      flexShrink={0}
      borderStyle="round"
      borderColor={focused ? 'cyan' : 'gray'}
      paddingX={1}
      overflow="hidden"
    >
      <Box height={1} flexShrink={0} justifyContent="space-between" gap={1} overflow="hidden">
        <Box flexShrink={1} overflow="hidden">
          <Text bold color={focused ? 'cyan' : undefined} wrap="truncate-end">
            {focused ? '▸ ' : ''}
            {title}
          </Text>
        </Box>
        {right !== undefined && (
          <Box flexShrink={0}>
            <Text wrap="truncate-end">{right}</Text>
          </Box>
        )}
      </Box>
      {children}
    </Box>
  );
}

/** "↑ 12 more" / "↓ 3 more" when a pane's list does not fit (empty when it does). */
export function moreText(above: number, below: number): string {
  const parts = [above > 0 ? `↑ ${above}` : '', below > 0 ? `↓ ${below}` : ''].filter(Boolean);
  return parts.length ? `${parts.join(' ')} more` : '';
}

/** Last row of a list scrolled back from its newest line. */
export function ScrolledHint({ above, below }: { above: number; below: number }) {
  return (
    <Text color="cyan" wrap="truncate-end">
      {moreText(above, below)} · End
    </Text>
  );
}
