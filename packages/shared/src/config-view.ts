import type { DaemonConfigView } from './domain/entities.ts';

/**
 * Human form of a daemon configuration (`forge config print`, from the running daemon or with
 * `--local`): one aligned `name  value` line per field; `extra` rows go first.
 */
export function formatConfigView(view: DaemonConfigView, extra: Array<[string, string]> = []): string {
  const rows: Array<[string, string]> = [
    ...extra,
    ['home', view.home],
    ['host', view.host],
    ['port', String(view.port)],
    ['allowedHosts', view.allowedHosts.length > 0 ? view.allowedHosts.join(', ') : '(none)'],
    ['accessToken', view.accessToken ?? '(not set)'],
    ['logLevel', view.logLevel],
    ['configFile', view.configFile ?? '(none)'],
    ['brain.url', view.brain.provider?.url ?? '(none: built-in answers only)'],
    ['brain.model', view.brain.provider?.model ?? '(none)'],
    ['brain.apiKey', view.brain.provider?.apiKey ?? '(not set)'],
    ['brain.sessionMinutes', String(view.brain.sessionMinutes)],
    [
      'queue',
      view.queue.kind === 'bullmq' ? `bullmq (${view.queue.url})` : 'in-process (builds run in this daemon)',
    ],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join('\n');
}
