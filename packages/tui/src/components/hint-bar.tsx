import { Box, Text } from 'ink';

export interface KeyHint {
  /** The key as the user types it, e.g. "q" or "tab". */
  key: string;
  /** What it does, e.g. "quit". */
  label: string;
}

/** Bottom bar listing the active keys, like k9s / lazydocker. */
export function HintBar({ hints }: { hints: readonly KeyHint[] }) {
  return (
    <Box paddingX={1} gap={3} flexShrink={0}>
      {hints.map((hint) => (
        <Text key={hint.key}>
          <Text bold color="cyan">
            {hint.key}
          </Text>{' '}
          <Text dimColor>{hint.label}</Text>
        </Text>
      ))}
    </Box>
  );
}
