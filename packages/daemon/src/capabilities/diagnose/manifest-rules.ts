import type { Diagnosis } from '@forge/shared';
import { jsonErrorPlace } from '../detect/json-place.ts';
import type { Context } from './context.ts';

/**
 * SYNTAX_ERROR in package.json itself (BlueprintBot could not read it, e.g. after an edit in the
 * workspace): the place JSON.parse stops at, as line and column (detect/json-place.ts). Never
 * repaired: which value was meant only the author knows.
 */
export async function invalidManifest(ctx: Context): Promise<Diagnosis | null> {
  if (ctx.input.error.code !== 'BLUEPRINT_INVALID_PACKAGE_JSON') return null;
  for (const file of new Set([ctx.appPackageJson, 'package.json'])) {
    const text = await ctx.readText(file, 1024 * 1024);
    if (text === null) continue;
    let error: unknown;
    try {
      JSON.parse(text);
      continue;
    } catch (err) {
      error = err;
    }
    const place = jsonErrorPlace(text, error);
    const fix = 'upload the project again; RepairBot never rewrites a package.json it cannot read.';
    if (!place) {
      return {
        code: 'SYNTAX_ERROR',
        summary: `${file} is not valid JSON: ${(error as Error).message}.`,
        file,
        suggestion: `Correct ${file} and ${fix}`,
      };
    }
    const { line, column, what } = place;
    return {
      code: 'SYNTAX_ERROR',
      summary: `${file} is not valid JSON at ${line}:${column}: ${what}.`,
      file,
      line,
      column,
      suggestion: `Correct ${file} at line ${line}, column ${column}, and ${fix}`,
    };
  }
  return null;
}
