import path from 'node:path';
import type { NodeRequirement } from '@forge/shared';
import semver from 'semver';
import type { DecisionLog } from './decisions.ts';
import { PACKAGE_JSON } from './package-json.ts';
import type { ProjectFiles } from './project-files.ts';

/** Where a project says which Node it wants, in the order Forge reads them. */
const VERSION_FILES = ['.nvmrc', '.node-version'] as const;

/** `.nvmrc` aliases (lts/*, lts/iron, node, stable…): a name nvm resolves, not a range. */
const ALIAS = /^(lts\/.*|node|stable|latest|current|system|iojs|unstable)$/i;

/** The first meaningful line of an .nvmrc/.node-version (comments and blank lines skipped). */
const firstLine = (text: string): string | null =>
  text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, '').trim())
    .find((line) => line !== '') ?? null;

/** engines.node from a package.json, when it is a non-empty string. */
async function enginesNode(files: ProjectFiles, rel: string): Promise<string | null> {
  const file = await files.read(rel);
  if (!file) return null;
  try {
    const data = JSON.parse(file.text) as { engines?: { node?: unknown } };
    const node = data.engines?.node;
    return typeof node === 'string' && node.trim() !== '' ? node.trim() : null;
  } catch {
    return null;
  }
}

/**
 * Whether `current` satisfies what the project wrote: a range (engines.node), or a version or
 * partial version (.nvmrc "20", "v20.11.1"). Null for an alias or anything that is not a range.
 */
export function satisfiesNode(wanted: string, current: string): boolean | null {
  const text = wanted.trim().replace(/^v(?=\d)/i, '');
  if (ALIAS.test(text)) return null;
  const range = semver.validRange(text);
  if (range === null) return null;
  return semver.satisfies(current, range, { includePrerelease: true });
}

/**
 * The Node version the project asks for — engines.node (what it supports), else .nvmrc, else
 * .node-version (what its developers run), in the app's folder first, then the others of `folders`
 * (the repository root) — against this machine's Node. Records a `node` decision that says up front
 * when it is not satisfied, so a later failure can point at it. Files are project-relative.
 */
export async function detectNodeRequirement(
  files: ProjectFiles,
  log: DecisionLog,
  options: { folders?: readonly string[]; current?: string } = {},
): Promise<NodeRequirement | null> {
  const current = options.current ?? process.versions.node;
  const found: { wanted: string; file: string }[] = [];
  for (const folder of new Set(options.folders ?? ['.'])) {
    const rel = (name: string) => path.posix.join(folder, name);
    const engines = await enginesNode(files, rel(PACKAGE_JSON));
    if (engines) found.push({ wanted: engines, file: rel(PACKAGE_JSON) });
    for (const name of VERSION_FILES) {
      const text = await files.read(rel(name), 4096);
      const line = text ? firstLine(text.text) : null;
      if (line) found.push({ wanted: line, file: rel(name) });
    }
  }
  const first = found[0];
  if (!first) return null;

  const satisfied = satisfiesNode(first.wanted, current);
  const where =
    path.posix.basename(first.file) === PACKAGE_JSON ? `engines.node in ${first.file}` : first.file;
  const also = found
    .slice(1)
    .map((f) => `${f.file} says ${f.wanted}`)
    .join(', ');
  const rest = also ? ` (${also}; ${where} comes first)` : '';
  const value = `${first.wanted} (this machine: ${current})`;
  if (satisfied === false) {
    log.add(
      'node',
      value,
      first.file,
      `Not satisfied: ${where} asks for Node ${first.wanted} and this machine runs Node ${current}; ` +
        `install, build or start may fail because of it${rest}`,
    );
  } else if (satisfied === true) {
    log.add(
      'node',
      value,
      first.file,
      `${where} asks for Node ${first.wanted}: Node ${current} satisfies it${rest}`,
    );
  } else {
    log.add(
      'node',
      value,
      first.file,
      `${where} says "${first.wanted}", which is not a version range Forge can check (an alias nvm resolves); ` +
        `this machine runs Node ${current}${rest}`,
    );
  }
  return { wanted: first.wanted, file: first.file, current, satisfied };
}
