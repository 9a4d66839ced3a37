import { ROUTE_PATHS } from '@forge/shared/schema-free';
import type { BootRead } from '../boot-protocol.ts';
import type { QueryRouteName } from './query-routes.ts';

/**
 * The routes of the boot script's reads (boot-protocol.ts, BOOT_READS, which spells out their paths):
 * the GETs the shell makes on every screen. In the same order; the test holds the two lists together.
 */
export const BOOT_READ_ROUTES = [
  'projects',
  'health',
  'botStatus',
] as const satisfies readonly QueryRouteName[];

const BOOT_READ_PATHS = new Set<string>(BOOT_READ_ROUTES.map((name) => ROUTE_PATHS[name].path));

/** The early answers taken from the boot script, by path, until a read takes each. */
const answers = new Map<string, unknown>();

/**
 * Takes the boot script's early answers (main.tsx, before the first render), once. The app's own
 * first GET of each of those paths is then answered from here instead of asking the daemon again
 * (`bootAnswer`, used by lib/api.ts), and validated by the client exactly as an answer from the
 * network. Anything else (still on its way, failed) is left out: the read asks the daemon itself
 * and reports what goes wrong as it always does.
 */
export function takeBootReads(host: { __forgeBootReads?: Record<string, BootRead> } = window): void {
  const reads = host.__forgeBootReads;
  if (!reads) return;
  delete host.__forgeBootReads;
  for (const [path, read] of Object.entries(reads)) {
    if (BOOT_READ_PATHS.has(path) && read.settled) answers.set(path, read.settled.json);
  }
}

/**
 * The boot script's answer to a GET of `target`, once, as the daemon's 200 it was; null when there
 * is none (any query string, another path, or taken already).
 */
export function bootAnswer(target: string): Response | null {
  if (!answers.has(target)) return null;
  const json = answers.get(target);
  answers.delete(target);
  return new Response(JSON.stringify(json), {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}
