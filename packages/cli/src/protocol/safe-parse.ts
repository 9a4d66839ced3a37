import type * as Shared from '@forge/shared';
import { checkJson, type JsonSchema } from './json-check.ts';

let shared: Promise<typeof Shared> | undefined;
/** The whole of @forge/shared, zod and every schema included (~30 ms): loaded once, when needed. */
export const loadShared = (): Promise<typeof Shared> => (shared ??= import('@forge/shared'));

/** The part of a zod schema this needs. */
export interface SafeParser {
  safeParse(
    value: unknown,
  ): { success: true; data: unknown } | { success: false; error: { message: string } };
}

export type ParseResult = { success: true; data: unknown } | { success: false; message: string };

/**
 * What `zodSchema.safeParse(value)` gives, without loading zod when it can: `jsonSchema` (zod's
 * JSON Schema of the same schema, precomputed at build time) vouches for a value that zod would give
 * back unchanged, which is what the daemon sends. Any other value is parsed by zod itself.
 */
export async function safeParse(
  jsonSchema: JsonSchema | null,
  value: unknown,
  zodSchema: (shared: typeof Shared) => SafeParser,
): Promise<ParseResult> {
  if (jsonSchema && checkJson(jsonSchema, value) === 'same') return { success: true, data: value };
  const parsed = zodSchema(await loadShared()).safeParse(value);
  return parsed.success ? parsed : { success: false, message: parsed.error.message };
}
