import path from 'node:path';
import type { NodeCandidate } from '@forge/shared';
import { constraintRange, pinRange } from './node-range.ts';
import { PACKAGE_JSON } from './package-json.ts';
import type { ProjectFiles } from './project-files.ts';

/** Version files are a line or two: nothing past this is read. */
const VERSION_FILE_BYTES = 4096;
/** mise's config files, as mise looks for them in a folder (the first that exists is read). */
const MISE_FILES = [
  'mise.toml',
  '.mise.toml',
  'mise/config.toml',
  '.mise/config.toml',
  '.config/mise.toml',
  '.config/mise/config.toml',
] as const;

type Read = Omit<NodeCandidate, 'used'>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nonEmpty = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** The lines of a version file, comments and blank lines skipped. */
const meaningfulLines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');

const constraint = (source: string, file: string, value: string, note: string | null = null): Read => {
  const range = constraintRange(value);
  return {
    source,
    file,
    value,
    role: 'constraint',
    range,
    note: range === null ? `"${value}" is not a range Forge can read` : note,
  };
};

const pin = (source: string, file: string, value: string): Read => {
  const read = pinRange(value);
  return { source, file, value, role: 'pin', range: read.range, note: read.note };
};

/**
 * npm's devEngines.runtime: one object or an array of them ({ name, version, onFail }); only the
 * entries named "node" speak of Node. onFail "ignore" asks for no check, so it is noted, not used.
 */
function devEnginesRuntime(runtime: unknown, file: string): Read[] {
  const entries = Array.isArray(runtime) ? runtime : [runtime];
  const out: Read[] = [];
  for (const entry of entries) {
    if (!isRecord(entry) || entry.name !== 'node') continue;
    const version = nonEmpty(entry.version);
    if (!version) continue;
    if (entry.onFail === 'ignore') {
      out.push({
        source: 'devEngines.runtime',
        file,
        value: version,
        role: 'constraint',
        range: null,
        note: 'onFail is "ignore": not a requirement',
      });
    } else out.push(constraint('devEngines.runtime', file, version));
  }
  return out;
}

/** engines.node, devEngines.runtime (constraints) and volta.node (a pin) of one package.json. */
async function fromPackageJson(files: ProjectFiles, file: string): Promise<Read[]> {
  const text = await files.read(file);
  if (!text) return [];
  let data: unknown;
  try {
    data = JSON.parse(text.text);
  } catch {
    // A broken package.json is reported by the plan's own reading of it.
    return [];
  }
  if (!isRecord(data)) return [];
  const out: Read[] = [];
  const engines = isRecord(data.engines) ? nonEmpty(data.engines.node) : null;
  if (engines) out.push(constraint('engines.node', file, engines));
  if (isRecord(data.devEngines)) out.push(...devEnginesRuntime(data.devEngines.runtime, file));
  const volta = isRecord(data.volta) ? nonEmpty(data.volta.node) : null;
  if (volta) out.push(pin('volta.node', file, volta));
  return out;
}

/** asdf's and mise's `.tool-versions`: `nodejs 20.11.1` (or `node …`); the first version listed is used. */
function toolVersionsNode(text: string): string | null {
  for (const line of meaningfulLines(text)) {
    const [tool, first] = line.split(/\s+/);
    if ((tool === 'nodejs' || tool === 'node') && first) return first;
  }
  return null;
}

/** A TOML string ("22", '22'), or the first string of an array, or `version` of an inline table. */
function tomlValue(raw: string): string | null {
  const value = raw.trim();
  const quoted = /^(["'])(.*?)\1/.exec(value);
  if (quoted) return quoted[2]!;
  if (value.startsWith('[')) return tomlValue(value.slice(1));
  const table = /^\{.*?\bversion\s*=\s*(["'])(.*?)\1/.exec(value);
  return table ? table[2]! : null;
}

/** `node = "…"` in the `[tools]` table of a mise config (read as text: only that key matters). */
export function miseNode(text: string): string | null {
  let inTools = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      inTools = header[1]!.trim() === 'tools';
      continue;
    }
    if (!inTools) continue;
    const entry = /^(?:node|"node"|'node')\s*=\s*(.+)$/.exec(line);
    if (entry) {
      const value = tomlValue(entry[1]!);
      // mise's own aliases for the newest LTS.
      return value === 'lts' ? 'lts/*' : value;
    }
  }
  return null;
}

/** Every place one folder states its Node, in the order Forge reads them. Files are project-relative. */
async function fromFolder(files: ProjectFiles, folder: string): Promise<Read[]> {
  const rel = (name: string) => path.posix.join(folder, name);
  const out = await fromPackageJson(files, rel(PACKAGE_JSON));
  for (const name of ['.nvmrc', '.node-version'] as const) {
    const text = await files.read(rel(name), VERSION_FILE_BYTES);
    const line = text ? meaningfulLines(text.text)[0] : undefined;
    if (line) out.push(pin(name, rel(name), line));
  }
  const toolVersions = await files.read(rel('.tool-versions'), VERSION_FILE_BYTES);
  const asdf = toolVersions ? toolVersionsNode(toolVersions.text) : null;
  if (asdf) out.push(pin('.tool-versions', rel('.tool-versions'), asdf));
  const mise = await files.firstFile(MISE_FILES.map(rel));
  const miseText = mise ? await files.read(mise, 64 * 1024) : null;
  const miseValue = miseText ? miseNode(miseText.text) : null;
  if (mise && miseValue) out.push(pin('mise.toml', mise, miseValue));
  return out;
}

/**
 * Every place the project states its Node, the app's folder first, then the other `folders` (the
 * repository root). Each is read as text; nothing is resolved here.
 */
export async function readNodeCandidates(
  files: ProjectFiles,
  folders: readonly string[],
): Promise<NodeCandidate[]> {
  const out: NodeCandidate[] = [];
  for (const folder of new Set(folders)) {
    for (const c of await fromFolder(files, folder)) out.push({ ...c, used: false });
  }
  return out;
}
