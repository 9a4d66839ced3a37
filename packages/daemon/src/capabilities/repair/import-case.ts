import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnosis } from '@forge/shared';
import { realWithin } from '../../fs/contain.ts';
import { unifiedDiff } from './diff.ts';
import { readInside } from './project.ts';
import type { PlanResult, RepairTarget } from './types.ts';

/** What bundlers try after a bare path (Vite's, webpack's and TypeScript's extensions together). */
const EXTENSIONS = ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx', '.json', '.vue', '.svelte'];
/** `./a.js` may name `a.ts` in a TypeScript project. */
const TS_FOR_JS: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

/** A project-relative path in canonical form, or null when it is absolute or leaves the project. */
function projectRel(file: string): string | null {
  const rel = path.posix.normalize(file.replaceAll('\\', '/'));
  if (path.posix.isAbsolute(rel) || rel === '..' || rel.startsWith('../') || rel === '.') return null;
  return rel;
}

/**
 * Whether project-relative `rel` is a file whose every segment is spelled with exactly this case
 * (true on case-insensitive disks too), links followed and inside the project.
 */
async function isExactFile(projectDir: string, rel: string): Promise<boolean> {
  let dir = projectDir;
  for (const segment of rel.split('/')) {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return false;
    }
    if (!names.includes(segment)) return false;
    dir = path.join(dir, segment);
  }
  const root = await realpath(projectDir);
  const real = await realWithin(root, dir);
  return real !== null && (await stat(real)).isFile();
}

/** The files a relative specifier written in `importerDir` can resolve to, spelled exactly as written. */
export async function resolveExact(
  projectDir: string,
  importerDir: string,
  specifier: string,
): Promise<string[]> {
  const base = projectRel(path.posix.join(importerDir, specifier));
  if (base === null) return [];
  const ext = path.posix.extname(base);
  const candidates = [
    base,
    ...EXTENSIONS.map((e) => base + e),
    ...EXTENSIONS.map((e) => `${base}/index${e}`),
    ...(TS_FOR_JS[ext] ?? []).map((e) => base.slice(0, -ext.length) + e),
  ];
  const found: string[] = [];
  for (const candidate of new Set(candidates))
    if (await isExactFile(projectDir, candidate)) found.push(candidate);
  return found;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every place `specifier` is imported in `source` as a string literal: import … from, export … from,
 * a side-effect import, import(), require() and CSS @import.
 */
export function importPattern(specifier: string): RegExp {
  const lead = String.raw`(\bfrom\s*|\bimport\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|@import\s+(?:url\(\s*)?)`;
  return new RegExp(`${lead}(["'\`])${escapeRegExp(specifier)}\\2`, 'g');
}

/**
 * FIX_IMPORT_CASE: rewrite the import whose path differs from exactly one file only by letter case,
 * in the importer only, every occurrence of that exact literal — and only when the corrected path
 * resolves to exactly one file on disk and the written one to none.
 */
export async function planImportCase(
  diagnosis: Pick<Diagnosis, 'file' | 'subjects'>,
  target: RepairTarget,
  /** Files as an earlier repair of the same pass leaves them (project-relative → text). */
  pending?: ReadonlyMap<string, string>,
): Promise<PlanResult> {
  const [written, corrected] = diagnosis.subjects ?? [];
  const importer = diagnosis.file === undefined ? null : projectRel(diagnosis.file);
  if (!written || !corrected || !importer) {
    return { plan: null, reason: 'the diagnosis does not name the import and the file that imports it' };
  }
  if (written === corrected || written.toLowerCase() !== corrected.toLowerCase()) {
    return { plan: null, reason: `"${written}" and "${corrected}" do not differ by letter case only` };
  }
  if (!/^\.\.?\//.test(corrected)) {
    return {
      plan: null,
      reason: `"${written}" is not a relative import: RepairBot only corrects project paths`,
    };
  }
  const source = pending?.get(importer) ?? (await readInside(target.projectDir, importer));
  if (source === null) return { plan: null, reason: `${importer} is not a file in the project` };

  const importerDir = path.posix.dirname(importer);
  const resolved = await resolveExact(target.projectDir, importerDir, corrected);
  if (resolved.length !== 1) {
    return {
      plan: null,
      reason:
        resolved.length === 0
          ? `"${corrected}" does not resolve to a file from ${importer}`
          : `"${corrected}" could mean ${resolved.join(' or ')}: RepairBot does not guess`,
    };
  }
  if ((await resolveExact(target.projectDir, importerDir, written)).length > 0) {
    return { plan: null, reason: `"${written}" already resolves to a file from ${importer}` };
  }

  let count = 0;
  const fixed = source.replace(importPattern(written), (_match, lead: string, quote: string) => {
    count++;
    return `${lead}${quote}${corrected}${quote}`;
  });
  if (count === 0) return { plan: null, reason: `${importer} has no import of "${written}"` };
  return {
    plan: {
      code: 'FIX_IMPORT_CASE',
      summary: `RepairBot changed the import "${written}" to "${corrected}" in ${importer}`,
      files: [importer],
      diff: unifiedDiff([{ file: importer, before: source, after: fixed }]),
      writes: [{ file: importer, content: fixed }],
      backup: [],
    },
  };
}

/** The extensions Node's ES module loader runs a relative import with, when it is written in full. */
export const NODE_ESM_EXTENSIONS = ['.js', '.mjs', '.cjs'] as const;

/**
 * ADD_IMPORT_EXTENSION: Node's ES module loader resolves a relative import exactly as written, so
 * `./lib/page` fails where a bundler would find `./lib/page.js`. The import is rewritten with the
 * extension of the one file it can mean (every occurrence of that literal in the importer), only
 * when the written path is no file and the completed one is exactly one.
 */
export async function planImportExtension(
  diagnosis: Pick<Diagnosis, 'file' | 'subjects'>,
  target: RepairTarget,
): Promise<PlanResult> {
  const [written, completed] = diagnosis.subjects ?? [];
  const importer = diagnosis.file === undefined ? null : projectRel(diagnosis.file);
  if (!written || !completed || !importer) {
    return { plan: null, reason: 'the diagnosis does not name the import and the file that imports it' };
  }
  const ext = completed.slice(written.length);
  if (!completed.startsWith(written) || !(NODE_ESM_EXTENSIONS as readonly string[]).includes(ext)) {
    return { plan: null, reason: `"${completed}" is not "${written}" with a module extension` };
  }
  if (!/^\.\.?\//.test(written)) {
    return {
      plan: null,
      reason: `"${written}" is not a relative import: RepairBot only completes project paths`,
    };
  }
  const importerDir = path.posix.dirname(importer);
  const exact = (spec: string) => {
    const rel = projectRel(path.posix.join(importerDir, spec));
    return rel === null ? Promise.resolve(false) : isExactFile(target.projectDir, rel);
  };
  if (await exact(written)) return { plan: null, reason: `"${written}" already is a file from ${importer}` };
  const others = await Promise.all(NODE_ESM_EXTENSIONS.map((e) => exact(written + e)));
  const found = NODE_ESM_EXTENSIONS.filter((_e, i) => others[i]);
  if (found.length !== 1 || found[0] !== ext) {
    return {
      plan: null,
      reason:
        found.length === 0
          ? `"${completed}" is not a file from ${importer}`
          : `"${written}" could mean ${found.map((e) => written + e).join(' or ')}: RepairBot does not guess`,
    };
  }
  const source = await readInside(target.projectDir, importer);
  if (source === null) return { plan: null, reason: `${importer} is not a file in the project` };
  let count = 0;
  const fixed = source.replace(importPattern(written), (_match, lead: string, quote: string) => {
    count++;
    return `${lead}${quote}${completed}${quote}`;
  });
  if (count === 0) return { plan: null, reason: `${importer} has no import of "${written}"` };
  return {
    plan: {
      code: 'ADD_IMPORT_EXTENSION',
      summary: `RepairBot changed the import "${written}" to "${completed}" in ${importer} (Node's ES modules need the file's extension)`,
      files: [importer],
      diff: unifiedDiff([{ file: importer, before: source, after: fixed }]),
      writes: [{ file: importer, content: fixed }],
      backup: [],
    },
  };
}
