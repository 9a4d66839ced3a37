import fs from 'node:fs';
import path from 'node:path';
import type { Diagnosis } from '@forge/shared';
import { importPattern, NODE_ESM_EXTENSIONS } from '../repair/import-case.ts';
import { REPAIR_HINT, type Context } from './context.ts';

/**
 * MISSING_FILE as Node's ES module loader says it: "Error [ERR_MODULE_NOT_FOUND]: Cannot find module
 * '<abs>/lib/page' imported from <abs>/build.js". Node resolves a relative import exactly as written
 * (no extension is tried, unlike a bundler), so the import is found again in the importer for its
 * line; when exactly one file is the path with a module extension (page.js), RepairBot writes it.
 * When none is, the path is in another case or missing: the import rules (imports.ts) read it.
 */
const NOT_FOUND = /\[ERR_MODULE_NOT_FOUND\]: Cannot find module '([^']+)' imported from (\S+)/;

export async function esmImport(ctx: Context): Promise<Diagnosis | null> {
  for (const line of ctx.lines) {
    const m = NOT_FOUND.exec(line);
    if (!m) continue;
    const importer = ctx.file(m[2]!);
    if (!importer) continue;
    const target = path.isAbsolute(m[1]!) ? ctx.rel(m[1]!) : ctx.rel(path.resolve(ctx.cwd, m[1]!));
    if (target === undefined) continue;
    let written = path.posix.relative(path.posix.dirname(importer), target);
    if (!written.startsWith('.')) written = `./${written}`;
    const source = await ctx.readText(importer);
    if (source === null) continue;
    const at = source.search(importPattern(written));
    if (at < 0) continue;
    const lineNo = source.slice(0, at).split('\n').length;
    const found = NODE_ESM_EXTENSIONS.filter((e) => isFile(ctx.abs(target + e)));
    // No file with an extension: a path in another case, or no file at all — the import rules say which.
    if (found.length === 0) continue;
    const base = {
      code: 'MISSING_FILE' as const,
      file: importer,
      line: lineNo,
    };
    if (found.length === 1) {
      const completed = written + found[0]!;
      return {
        ...base,
        summary: `${importer} imports "${written}", but Node's ES modules need the file's extension: the file is ${target}${found[0]}.`,
        suggestion: `Write the import as "${completed}". ${REPAIR_HINT}`,
        subjects: [written, completed],
        repair: 'ADD_IMPORT_EXTENSION',
      };
    }
    return {
      ...base,
      summary: `${importer} imports "${written}", but Node's ES modules need the file's extension, and it could be ${found.map((e) => written + e).join(' or ')}.`,
      suggestion: `Write the import with the extension of the file it means; RepairBot does not guess.`,
      subjects: [written],
    };
  }
  return null;
}

function isFile(abs: string): boolean {
  try {
    return fs.statSync(abs).isFile();
  } catch {
    return false;
  }
}
