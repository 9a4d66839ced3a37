/**
 * Facts of the protocol that the CLI's read commands need, taken from @forge/shared. The bundle gets
 * the values, computed at build time (scripts/precomputed-plugin.ts), instead of this code: so a
 * read command knows every route, the JSON Schema of its answer and the labels it prints without
 * loading zod and the schemas. Run from source (tests), this module computes the same values.
 * Exports are JSON data only.
 */
import {
  BOT_BUTTONS,
  BOT_CATEGORIES,
  CODE_KINDS,
  DaemonState,
  routes,
  SETTING_KEYS,
  STAGE_LABELS,
  WorkerHelloBody,
  WorkerName,
  type RouteContract,
  type RouteName,
} from '@forge/shared';
import type { JsonSchema } from './json-check.ts';

export interface RouteFacts {
  method: string;
  path: string;
  /** The form field of a multipart upload; null for other routes. */
  multipart: string | null;
  /** The route takes a JSON body. */
  body: boolean;
  /**
   * The JSON Schema of the answer as zod's output, `'binary'` for a download, or null when zod
   * cannot express it (a transform): such an answer is always checked by zod itself.
   */
  response: JsonSchema | 'binary' | null;
}

/** zod's view of a value it produced: what a daemon of this version sends. */
function outputSchema(schema: Exclude<RouteContract['response'], 'binary'>): JsonSchema | null {
  try {
    return schema.toJSONSchema({ io: 'output', unrepresentable: 'throw' }) as JsonSchema;
  } catch {
    return null;
  }
}

export const ROUTES = Object.fromEntries(
  Object.entries(routes).map(([name, route]): [string, RouteFacts] => [
    name,
    {
      method: route.method,
      path: route.path,
      multipart: 'multipart' in route && route.multipart ? route.multipart.field : null,
      body: 'body' in route && route.body !== undefined,
      response: route.response === 'binary' ? 'binary' : outputSchema(route.response),
    },
  ]),
) as Record<RouteName, RouteFacts>;

/** `<FORGE_HOME>/daemon.json`. */
export const DAEMON_STATE_SCHEMA = outputSchema(DaemonState);

export const STAGE_LABEL_OF: Record<string, string> = { ...STAGE_LABELS };
export const BOT_CATEGORY_ORDER: readonly string[] = [...BOT_CATEGORIES];

/** Per bot: why its Build / Fix button is disabled, or null when it runs the bot's job. */
export const BOT_BUTTONS_DISABLED: Readonly<Record<string, { build: string | null; fix: string | null }>> =
  Object.fromEntries(
    Object.entries(BOT_BUTTONS).map(([name, b]) => [
      name,
      {
        build: 'disabled' in b.build ? b.build.disabled : null,
        fix: 'disabled' in b.fix ? b.fix.disabled : null,
      },
    ]),
  );
export const SETTING_NAMES: readonly string[] = [...SETTING_KEYS];
export const CODE_KIND_NAMES: readonly string[] = [...CODE_KINDS];

/** `forge worker --name`: what the coordinator accepts as a worker's name, and how it says so. */
export const WORKER_NAME_RULE = (() => {
  const schema = outputSchema(WorkerName) as { pattern: string; maxLength: number };
  const refusal = WorkerName.safeParse('-').error?.issues[0]?.message ?? 'is not a valid worker name';
  return { pattern: schema.pattern, maxLength: schema.maxLength, refusal };
})();

/** `forge worker --concurrency`: the most builds at once a worker may announce. */
export const WORKER_CONCURRENCY_MAX = (outputSchema(WorkerHelloBody.shape.concurrency) as { maximum: number })
  .maximum;
