import { Text } from 'ink';
import { UI_TEXT, type SocketStatus } from '@forge/shared';

/**
 * The web's indicator in the terminal: green Connected only while the socket is open; anything
 * else (first attempt, retry, refused) is red Disconnected, as the user cannot use the daemon yet.
 */
export function ConnectionIndicator({ status }: { status: SocketStatus }) {
  const connected = status === 'connected';
  return (
    <Text color={connected ? 'green' : 'red'}>● {connected ? UI_TEXT.connected : UI_TEXT.disconnected}</Text>
  );
}
