import { consoleRows, type ConsoleRow } from '../lib/display-rows.ts';
import { useClientState } from './use-forge.tsx';

/**
 * The logs pane's rows: the client model's app-wide console (every log and output line, each stage
 * a build enters, bots taking jobs, how builds end), one row per line, oldest first.
 */
export function useLogs(): readonly ConsoleRow[] {
  return consoleRows(useClientState().console);
}
