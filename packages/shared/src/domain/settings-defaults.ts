// The settings' defaults without their schema (settings.ts re-exports them), for a client's first
// paint (schema-free.ts).
import { DEFAULT_KEEP_ARTIFACTS, DEFAULT_MAX_CONCURRENT_BOTS } from '../constants.ts';

/** Checked against the Settings schema in settings.ts (imported from there, it would make a cycle). */
export const DEFAULT_SETTINGS = {
  botOrchestration: true,
  autoRepair: true,
  debugMode: false,
  maxConcurrentBots: DEFAULT_MAX_CONCURRENT_BOTS,
  keepArtifacts: DEFAULT_KEEP_ARTIFACTS,
};
