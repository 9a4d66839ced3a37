import { readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';

/**
 * Looks on disk for what a relative import that failed to resolve meant. Projects written on macOS
 * or Windows import `./components/Header` while the file is `components/header.tsx`: those file
 * systems ignore case, Linux does not. Each written segment is matched against the folder's entries
 * ignoring case, with the extensions and index files bundlers try.
 */

/** What bundlers and Node try after an extension-less import, in their usual order. */
export const IMPORT_EXTENSIONS = [
  '.ts',
  '.tsx',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '.mts',
  '.cts',
  '.vue',
  '.svelte',
  '.css',
  '.json',
];
/** TypeScript's ESM convention: `./util.js` in source means `util.ts` on disk. */
const TS_FOR_JS: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};
/** Folders with more entries than this are not matched (a case mismatch is in a source folder). */
const MAX_ENTRIES = 5_000;
/** At most this many same-name-ignoring-case folders are followed per segment. */
const MAX_BRANCHES = 8;

export type CaseMatch =
  /** The import resolves as written: the failure is something else. */
  | { kind: 'exists' }
  /** Exactly one file matches ignoring case: the import as it should be written, and the file. */
  | { kind: 'case'; corrected: string; file: string }
  /** Nothing matches, even ignoring case (or several do: no single fix). */
  | { kind: 'none'; candidates: string[] };

interface Branch {
  dir: string;
  written: string[];
}

function entries(dir: string): Dirent[] {
  try {
    const list = readdirSync(dir, { withFileTypes: true });
    return list.length > MAX_ENTRIES ? [] : list;
  } catch {
    return [];
  }
}

const isDir = (dir: string, entry: Dirent): boolean => {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(path.join(dir, entry.name)).isDirectory();
  } catch {
    return false;
  }
};
const isFile = (dir: string, entry: Dirent): boolean => {
  if (entry.isFile()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(path.join(dir, entry.name)).isFile();
  } catch {
    return false;
  }
};

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Whether `dir` has an index file (any case), as `import './components'` needs. */
function hasIndex(dir: string): string | undefined {
  const index = entries(dir).find(
    (e) => isFile(dir, e) && IMPORT_EXTENSIONS.some((ext) => same(e.name, `index${ext}`)),
  );
  return index?.name;
}

/** The ways the last segment `name` can be on disk in `dir`: [written form, file path]. */
function lastSegment(dir: string, name: string): { written: string; file: string }[] {
  const found: { written: string; file: string }[] = [];
  const ext = path.extname(name);
  const base = ext ? name.slice(0, -ext.length) : name;
  for (const entry of entries(dir)) {
    const full = path.join(dir, entry.name);
    if (same(entry.name, name)) {
      if (isFile(dir, entry)) found.push({ written: entry.name, file: full });
      else if (isDir(dir, entry)) {
        const index = hasIndex(full);
        if (index) found.push({ written: entry.name, file: path.join(full, index) });
      }
      continue;
    }
    if (!isFile(dir, entry)) continue;
    const added = IMPORT_EXTENSIONS.find((e) => same(entry.name, `${name}${e}`));
    if (added) {
      found.push({ written: entry.name.slice(0, entry.name.length - added.length), file: full });
      continue;
    }
    const swapped = (TS_FOR_JS[ext.toLowerCase()] ?? []).find((e) => same(entry.name, `${base}${e}`));
    if (swapped)
      found.push({ written: `${entry.name.slice(0, entry.name.length - swapped.length)}${ext}`, file: full });
  }
  return found;
}

/**
 * What `specifier` (relative: `./x`, `../x`) written in a file of `baseDir` resolves to, ignoring
 * case. `root` bounds the search: nothing outside it is looked at.
 */
export function matchIgnoringCase(baseDir: string, specifier: string, root: string): CaseMatch {
  const segments = specifier.split('/').filter((s) => s !== '');
  const prefix: string[] = [];
  let start = path.resolve(baseDir);
  let i = 0;
  for (; i < segments.length && (segments[i] === '.' || segments[i] === '..'); i += 1) {
    prefix.push(segments[i]!);
    if (segments[i] === '..') start = path.dirname(start);
  }
  const named = segments.slice(i);
  const inside = (p: string) => p === root || p.startsWith(`${root}${path.sep}`);
  if (named.length === 0 || !inside(start)) return { kind: 'none', candidates: [] };

  let branches: Branch[] = [{ dir: start, written: [] }];
  for (const segment of named.slice(0, -1)) {
    const next: Branch[] = [];
    if (segment === '.' || segment === '..') {
      for (const b of branches)
        next.push({ dir: path.resolve(b.dir, segment), written: [...b.written, segment] });
    } else {
      for (const b of branches) {
        for (const entry of entries(b.dir)) {
          if (same(entry.name, segment) && isDir(b.dir, entry)) {
            next.push({ dir: path.join(b.dir, entry.name), written: [...b.written, entry.name] });
          }
        }
      }
    }
    branches = next.filter((b) => inside(b.dir)).slice(0, MAX_BRANCHES);
    if (branches.length === 0) return { kind: 'none', candidates: [] };
  }

  const last = named.at(-1)!;
  const matches = branches.flatMap((b) =>
    lastSegment(b.dir, last).map((m) => ({ written: [...b.written, m.written], file: m.file })),
  );
  const asWritten = named.join('/');
  if (matches.some((m) => m.written.join('/') === asWritten)) return { kind: 'exists' };
  const files = [...new Set(matches.map((m) => m.file))];
  if (files.length !== 1) return { kind: 'none', candidates: files };
  const leading = prefix.length > 0 ? prefix.join('/') : '.';
  return { kind: 'case', corrected: `${leading}/${matches[0]!.written.join('/')}`, file: files[0]! };
}
