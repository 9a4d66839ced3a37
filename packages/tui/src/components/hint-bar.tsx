import { Box, Text } from 'ink';

export interface KeyHint {
  /** The key as the user types it, e.g. "q" or "tab". */
  key: string;
  /** What it does, e.g. "quit". */
  label: string;
  /** Left out first when the bar does not fit the terminal. */
  optional?: boolean;
}

const GAP = 2;

/** The hints that fit `width` columns: optional ones are dropped, last first, until they do. */
export function fittingHints(hints: readonly KeyHint[], width: number): KeyHint[] {
  const kept = [...hints];
  const size = () =>
    2 + kept.reduce((n, h, i) => n + h.key.length + 1 + h.label.length + (i > 0 ? GAP : 0), 0);
  while (size() > width) {
    const index = kept.findLastIndex((h) => h.optional);
    if (index < 0) break;
    kept.splice(index, 1);
  }
  return kept;
}

/** Bottom bar listing the active keys, like k9s / lazydocker. */
export function HintBar({ hints, width }: { hints: readonly KeyHint[]; width: number }) {
  return (
    <Box width={width} height={1} flexShrink={0} paddingX={1} gap={GAP} overflow="hidden">
      {fittingHints(hints, width).map((hint) => (
        <Box key={hint.key} flexShrink={0}>
          <Text>
            <Text bold color="cyan">
              {hint.key}
            </Text>{' '}
            <Text dimColor>{hint.label}</Text>
          </Text>
        </Box>
      ))}
    </Box>
  );
}
