import type { Build, BuildLogsResponse, SocketHandlers, SocketSubscription } from '@forge/shared';
import type { CliClient } from '../http/client.ts';

/**
 * The few daemon calls that following a build needs. A narrow interface so the wait and follow logic
 * is tested against a fake instead of a daemon.
 */
export interface BuildSource {
  /** GET /api/builds/:id */
  getBuild(id: string): Promise<Build>;
  /** GET /api/builds/:id/logs?after=&limit= */
  getLogs(id: string, page: { after?: number; limit?: number }): Promise<BuildLogsResponse>;
  /** /ws; reconnects on its own until closed. */
  subscribe(handlers: SocketHandlers): SocketSubscription;
}

export function buildSource(client: CliClient): BuildSource {
  return {
    getBuild: (id) => client.request('build', { params: { id } }),
    getLogs: (id, page) => client.request('buildLogs', { params: { id }, query: page }),
    subscribe: (handlers) => client.subscribe(handlers),
  };
}
