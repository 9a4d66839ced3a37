import { Box, Text } from 'ink';
import { SOCKET_RECONNECT_MS } from '@forge/shared';
import { START_DAEMON_COMMAND } from '../constants.ts';
import { BANNER_ROWS } from '../lib/layout.ts';

/** Shown while no daemon answers: what is wrong and the one command that fixes it. */
export function OfflineBanner({ baseUrl, width }: { baseUrl: string; width: number }) {
  return (
    <Box
      width={width}
      height={BANNER_ROWS}
      flexShrink={0}
      flexDirection="column"
      borderStyle="round"
      borderColor="red"
      paddingX={1}
      overflow="hidden"
    >
      <Text wrap="truncate-end">
        <Text color="red">No Forge daemon answers at </Text>
        <Text bold>{baseUrl}</Text>
        <Text color="red">.</Text>
      </Text>
      <Text wrap="truncate-end">
        Start one with <Text color="cyan">{START_DAEMON_COMMAND}</Text>
        <Text dimColor> · retrying every {SOCKET_RECONNECT_MS / 1000} s…</Text>
      </Text>
    </Box>
  );
}
