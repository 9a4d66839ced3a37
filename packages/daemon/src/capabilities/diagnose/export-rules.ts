import type { Diagnosis } from '@forge/shared';
import type { Context } from './context.ts';

/**
 * MISSING_EXPORT: an import names an export its module does not have. Rolldown (Vite 7+):
 * `[MISSING_EXPORT] "formatPrice" is not exported by "src/format.js".` with the importer's place
 * under it; Rollup: `"formatPrice" is not exported by "src/format.js", imported by "src/main.js".`;
 * esbuild: `No matching export in "src/format.js" for import "formatPrice"`. Which name was meant
 * (a rename, a typo, a default export) only the author knows: explained at the import, never repaired.
 */
const PATTERNS: { re: RegExp; name: number; module: number }[] = [
  { re: /"([^"]+)" is not exported by "([^"]+)"/, name: 1, module: 2 },
  { re: /No matching export in "([^"]+)" for import "([^"]+)"/, name: 2, module: 1 },
];

export function missingExport(ctx: Context): Diagnosis | null {
  for (const [i, line] of ctx.lines.entries()) {
    for (const p of PATTERNS) {
      const m = p.re.exec(line);
      if (!m) continue;
      const name = m[p.name]!;
      const module = ctx.file(m[p.module]!) ?? m[p.module]!;
      // The build's own error list has the importer's place; else the lines around the message.
      const listed = ctx.input.error.errors?.find((e) => e.message.includes(`"${name}"`) && e.file);
      const place = listed?.file
        ? { file: listed.file, line: listed.line, column: listed.column }
        : ctx.locate(i, name);
      const importer = place?.file && place.file !== module ? place.file : undefined;
      return {
        code: 'MISSING_EXPORT',
        summary: `${importer ?? 'An import'} asks ${module} for "${name}", which it does not export.`,
        ...(importer ? { file: importer } : {}),
        ...(importer && place?.line ? { line: place.line } : {}),
        ...(importer && place?.line && place.column ? { column: place.column } : {}),
        suggestion: `Import a name ${module} exports (or export "${name}" from it); RepairBot does not guess which name was meant.`,
        subjects: [name, module],
      };
    }
  }
  return null;
}
