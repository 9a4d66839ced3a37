import {
  BOT_BUTTONS_DISABLED,
  BOT_CATEGORY_ORDER,
  CODE_KIND_NAMES,
  SETTING_NAMES,
  STAGE_LABEL_OF,
  WORKER_NAME_RULE,
} from './protocol.precomputed.ts';

/**
 * What the read commands need from @forge/shared's schema modules, answering as shared does
 * (facts.test.ts compares them) without loading zod: the values come precomputed at build time.
 */

/** As shared's stageLabel: the documented label of a stage, or the stage itself when unknown. */
export const stageLabel = (stage: string): string => STAGE_LABEL_OF[stage] ?? stage;

/** As shared's BOT_CATEGORIES: the categories in the order the web UI shows them. */
export const BOT_CATEGORIES = BOT_CATEGORY_ORDER;

/** As shared's botButtonDisabled: why a bot's Build / Fix is disabled, or null when it has a job. */
export const botButtonDisabled = (bot: string, button: 'build' | 'fix'): string | null =>
  BOT_BUTTONS_DISABLED[bot]?.[button] ?? null;

/** As shared's SETTING_KEYS. */
export const SETTING_KEYS = SETTING_NAMES;

/** As shared's CODE_KINDS: what `forge generate` writes (component, api, function, schema). */
export const CODE_KINDS = CODE_KIND_NAMES;

/** As shared's isZipName (upload-check.ts, which loads the error catalogue's schemas). */
export const isZipName = (name: string): boolean => /\.zip$/i.test(name);

const WORKER_NAME = new RegExp(WORKER_NAME_RULE.pattern);

/**
 * As shared's WorkerName: undefined for a name the coordinator accepts, else why not (for a wrong
 * character, the schema's own words).
 */
export function workerNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (name.length > WORKER_NAME_RULE.maxLength)
    return `must be at most ${WORKER_NAME_RULE.maxLength} characters`;
  return WORKER_NAME.test(name) ? undefined : WORKER_NAME_RULE.refusal;
}

/** The most builds at once a worker may run (shared's WorkerHelloBody.concurrency). */
export { WORKER_CONCURRENCY_MAX } from './protocol.precomputed.ts';
