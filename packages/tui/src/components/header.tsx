import { Box, Text } from 'ink';
import { useForge } from '../hooks/use-forge.tsx';
import { ConnectionIndicator } from './connection-indicator.tsx';

/** Top line: product, the daemon URL this dashboard watches, and the connection state. */
export function Header() {
  const { baseUrl, status } = useForge();
  return (
    <Box paddingX={1} justifyContent="space-between" flexShrink={0}>
      <Box gap={2}>
        <Text bold color="cyan">
          Forge
        </Text>
        <Text dimColor>{baseUrl}</Text>
      </Box>
      <ConnectionIndicator status={status} />
    </Box>
  );
}
