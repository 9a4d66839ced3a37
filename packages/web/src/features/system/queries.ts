import { useQuery } from '@tanstack/react-query';
import { routeQuery } from '@/lib/query-client.ts';
import { useSocket } from '@/lib/socket.tsx';

export const useHealth = () => useQuery(routeQuery('health'));

export type DaemonState = 'operational' | 'checking' | 'offline';

/**
 * Whether the daemon is up, from evidence rather than hope: the live socket is open and the last
 * health check answered ok. A cached "ok" alone proves nothing once the socket has dropped.
 */
export function useDaemonState(): { state: DaemonState; health: ReturnType<typeof useHealth> } {
  const health = useHealth();
  const socket = useSocket();
  let state: DaemonState;
  if (socket.status === 'connected' && health.data?.ok) state = 'operational';
  else if (socket.status === 'connected' ? health.isPending : socket.firstAttempt) state = 'checking';
  else state = 'offline';
  return { state, health };
}
