import type { Diagnosis } from '@forge/shared';
import { REPAIR_HINT, type Context } from './context.ts';

/**
 * MISSING_PACKAGE for type definitions tsc says it lacks: TS2688 "Cannot find type definition file
 * for 'node'" (the tsconfig's "types" names a package that is not installed) and TS2580 "Do you need
 * to install type definitions for node? Try `npm i --save-dev @types/node`." Both name the package
 * for certain, so RepairBot adds it to devDependencies. TS2591 ("… and then add 'node' to the types
 * field") alone is left to the type-error rule: the tsconfig needs an edit too.
 */
const MISSING_TYPES = /error TS2688: Cannot find type definition file for '([^']+)'/;
const TRY_INSTALL = /error TS25(?:80|91):.*Try `npm i --save-dev (@types\/[\w.-]+)`/;

export async function missingTypes(ctx: Context): Promise<Diagnosis | null> {
  let name: string | undefined;
  for (const line of ctx.lines) {
    const asked = MISSING_TYPES.exec(line)?.[1];
    if (asked && !asked.startsWith('.') && !asked.startsWith('/')) {
      name = asked.startsWith('@types/') ? asked : `@types/${asked.replace(/^@([^/]+)\//, '$1__')}`;
      break;
    }
  }
  const use = ctx.input.error.errors?.find((e) => /^TS25(?:80|91)$/.test(e.code ?? '') && e.file);
  const tryInstall = ctx.lines.map((l) => TRY_INSTALL.exec(l)).find(Boolean);
  if (!name && tryInstall && /^error TS2580/.test(tryInstall[0])) name = tryInstall[1];
  if (!name || (await ctx.declared(name))) return null;
  const place = use?.file
    ? {
        file: use.file,
        ...(use.line ? { line: use.line } : {}),
        ...(use.line && use.column ? { column: use.column } : {}),
      }
    : await typesEntry(ctx, name);
  return {
    code: 'MISSING_PACKAGE',
    summary: `tsc cannot find the type definitions ${name}${use?.file ? ` (${use.file} uses them)` : ''}: ${ctx.appPackageJson} does not declare it.`,
    ...place,
    suggestion: `Add ${name} to the devDependencies in ${ctx.appPackageJson}. ${REPAIR_HINT}`,
    subjects: [name],
    repair: 'ADD_MISSING_PACKAGES',
  };
}

/** Where the tsconfig's "types" names the package (tsc prints no place for TS2688). */
async function typesEntry(ctx: Context, name: string): Promise<{ file: string; line?: number }> {
  const file = ctx.appDir === '.' ? 'tsconfig.json' : `${ctx.appDir}/tsconfig.json`;
  const text = await ctx.readText(file, 1024 * 1024);
  const types = text?.search(/"types"\s*:/) ?? -1;
  if (text === null || text === undefined || types < 0) return { file };
  const entry = name.replace(/^@types\//, '').replace(/^(\w[\w.-]*)__/, '@$1/');
  const at = text.indexOf(`"${entry}"`, types);
  return at < 0 ? { file } : { file, line: text.slice(0, at).split('\n').length };
}
