import fs from 'node:fs';
import path from 'node:path';
import { PYTHON_LOCKS, normalizePypi, parsePythonLock } from '../detect/python-lock.ts';

/**
 * The packages of a project of another stack, for its SBOM (docs/artifacts.md): Python's installed
 * distributions in the build's virtual environment (else the pins of its lockfile), Go's modules
 * from go.mod and go.sum, PHP's from composer.lock. Read as files, never by running the project's
 * tools: each has what `pip list`, `go list -m all` and `composer show` print.
 */

/** A package as the SBOM lists it. */
export interface StackPackage {
  /** purl type: pypi, golang, composer. */
  type: 'pypi' | 'golang' | 'composer';
  /** As the ecosystem writes it ("Flask", "github.com/google/uuid", "monolog/monolog"). */
  name: string;
  version: string;
  /** sha256 (Go's h1: digest) or sha1 (Composer's dist shasum), hex. */
  hash?: { alg: 'SHA-256' | 'SHA-1'; hex: string };
  /** SPDX ids or licence names as the package declares them. */
  licenses: string[];
  /** Names (as above) of the packages it requires, when the source says. */
  requires: string[];
  /** Needed only to develop the project (Composer's packages-dev, Go's indirect modules are not that). */
  development?: boolean;
}

export interface StackPackages {
  packages: StackPackage[];
  /** The files read ("requirements.txt", "go.sum", "composer.lock"). */
  lockfile: string | null;
  /** The names the project itself requires: the root component's dependencies. */
  direct: string[];
}

const readText = (file: string): string | null => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** The name a requirement line or a Requires-Dist names (before any extra, marker or version). */
const requirementName = (line: string): string | null => {
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(line);
  return m ? m[1]! : null;
};

/** The headers of a core-metadata file (METADATA, PKG-INFO): everything before the first blank line. */
function metadataHeaders(text: string): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  for (const line of text.split(/\r?\n/)) {
    if (line === '') break;
    if (/^\s/.test(line) && headers.length > 0) {
      headers[headers.length - 1]![1] += `\n${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon > 0) headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return headers;
}

/**
 * A distribution's licence: License-Expression (PEP 639), else License when it is one short line,
 * else the OSI classifiers ("License :: OSI Approved :: MIT License" → "MIT License").
 */
function pythonLicenses(headers: Array<[string, string]>): string[] {
  const of = (key: string) => headers.filter(([k]) => k.toLowerCase() === key).map(([, v]) => v);
  const expression = of('license-expression')[0];
  if (expression) return [expression];
  const license = of('license')[0];
  if (license && !license.includes('\n') && license.length <= 100 && license !== 'UNKNOWN') return [license];
  return of('classifier')
    .filter((c) => c.startsWith('License ::'))
    .map((c) => c.split('::').at(-1)!.trim())
    .filter((c) => c && c !== 'OSI Approved');
}

/** The site-packages folders of a virtual environment (lib/python3.X/site-packages; Windows' Lib). */
function sitePackages(venv: string): string[] {
  const out: string[] = [];
  for (const lib of ['lib', 'lib64', 'Lib']) {
    const dir = path.join(venv, lib);
    let entries: string[] = [];
    try {
      entries = fs.readdirSync(dir);
    } catch {
      continue;
    }
    if (entries.includes('site-packages')) out.push(path.join(dir, 'site-packages'));
    for (const e of entries.sort()) {
      if (/^python\d/.test(e) && fs.existsSync(path.join(dir, e, 'site-packages')))
        out.push(path.join(dir, e, 'site-packages'));
    }
  }
  return [...new Set(out.map((d) => fs.realpathSync(d)))];
}

/** The pip tooling a virtual environment is made with: not the project's packages (`pip list` shows them, pip freeze does not). */
const VENV_TOOLING = new Set(['pip', 'setuptools', 'wheel', 'distribute']);

/** Python: the requirement pins (requirements.txt, else uv.lock, poetry.lock or pdm.lock), with their single sha256 when given. */
function pythonPins(dir: string): {
  file: string | null;
  pins: Map<string, { version: string; sha256?: string }>;
} {
  const pins = new Map<string, { version: string; sha256?: string }>();
  const req = readText(path.join(dir, 'requirements.txt'));
  if (req !== null) {
    // Continuation lines joined first: hashes are usually on the lines after their requirement.
    for (const line of req.replace(/\\\r?\n/g, ' ').split(/\r?\n/)) {
      const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*===?\s*([^\s;#]+)/.exec(line);
      if (!m) continue;
      const hashes = [...line.matchAll(/--hash[= ]sha256:([0-9a-f]{64})/g)].map((h) => h[1]!);
      pins.set(normalizePypi(m[1]!), {
        version: m[2]!,
        ...(hashes.length === 1 ? { sha256: hashes[0]! } : {}),
      });
    }
    return { file: 'requirements.txt', pins };
  }
  for (const [file, tool] of PYTHON_LOCKS) {
    const text = readText(path.join(dir, file));
    if (text === null) continue;
    try {
      const lock = parsePythonLock(file, tool, text, null);
      for (const { name, version } of lock.packages) pins.set(name, { version });
      return { file, pins };
    } catch {
      return { file: null, pins };
    }
  }
  return { file: null, pins };
}

/**
 * Python: the distributions installed in the build's virtual environment (each *.dist-info's
 * METADATA: name, version, licence, Requires-Dist), as `pip list` lists them less pip's own
 * tooling; without one, the lockfile's pins. The requirements' hashes are kept when one is pinned.
 */
export function pythonPackages(dir: string, venv: string | null): StackPackages {
  const { file, pins } = pythonPins(dir);
  const packages: StackPackage[] = [];
  const seen = new Set<string>();
  for (const site of venv ? sitePackages(venv) : []) {
    for (const entry of fs.readdirSync(site).sort()) {
      if (!entry.endsWith('.dist-info')) continue;
      const text = readText(path.join(site, entry, 'METADATA'));
      if (text === null) continue;
      const headers = metadataHeaders(text);
      const name = headers.find(([k]) => k.toLowerCase() === 'name')?.[1];
      const version = headers.find(([k]) => k.toLowerCase() === 'version')?.[1];
      if (!name || !version || VENV_TOOLING.has(normalizePypi(name)) || seen.has(normalizePypi(name)))
        continue;
      seen.add(normalizePypi(name));
      const pin = pins.get(normalizePypi(name));
      const requires = headers
        .filter(([k, v]) => k.toLowerCase() === 'requires-dist' && !/;\s*.*extra\s*==/.test(v))
        .map(([, v]) => requirementName(v))
        .filter((n): n is string => n !== null);
      packages.push({
        type: 'pypi',
        name,
        version,
        licenses: pythonLicenses(headers),
        requires,
        ...(pin?.sha256 && pin.version === version ? { hash: { alg: 'SHA-256', hex: pin.sha256 } } : {}),
      });
    }
  }
  if (packages.length === 0) {
    for (const [name, pin] of [...pins].sort(([a], [b]) => a.localeCompare(b))) {
      packages.push({
        type: 'pypi',
        name,
        version: pin.version,
        licenses: [],
        requires: [],
        ...(pin.sha256 ? { hash: { alg: 'SHA-256', hex: pin.sha256 } } : {}),
      });
    }
  }
  const direct = pins.size > 0 ? [...pins.keys()] : packages.map((p) => p.name);
  return { packages, lockfile: file, direct };
}

/** Go: go.mod's requirements (direct and `// indirect`), each with go.sum's h1: digest as its sha256. */
export function goPackages(dir: string): StackPackages {
  const mod = readText(path.join(dir, 'go.mod'));
  if (mod === null) return { packages: [], lockfile: null, direct: [] };
  const requires: Array<{ path: string; version: string; indirect: boolean }> = [];
  let inBlock = false;
  for (const raw of mod.split(/\r?\n/)) {
    const line = raw.trim();
    if (inBlock && line === ')') {
      inBlock = false;
      continue;
    }
    let spec: string | null = null;
    if (inBlock) spec = line;
    else if (/^require\s*\($/.test(line)) inBlock = true;
    else if (/^require\s+/.test(line)) spec = line.replace(/^require\s+/, '');
    if (!spec || spec.startsWith('//')) continue;
    const m = /^(\S+)\s+(v\S+)(\s*\/\/\s*indirect)?/.exec(spec);
    if (m) requires.push({ path: m[1]!, version: m[2]!, indirect: Boolean(m[3]) });
  }
  const sums = new Map<string, string>();
  const sum = readText(path.join(dir, 'go.sum'));
  for (const line of (sum ?? '').split(/\r?\n/)) {
    const m = /^(\S+)\s+(v\S+?)\s+h1:(\S+)$/.exec(line.trim());
    if (!m || m[2]!.endsWith('/go.mod')) continue;
    const hex = Buffer.from(m[3]!, 'base64').toString('hex');
    if (hex.length === 64) sums.set(`${m[1]}@${m[2]}`, hex);
  }
  const packages: StackPackage[] = requires.map((r) => {
    const hex = sums.get(`${r.path}@${r.version}`);
    return {
      type: 'golang',
      name: r.path,
      version: r.version,
      licenses: [],
      requires: [],
      ...(hex ? { hash: { alg: 'SHA-256', hex } } : {}),
    };
  });
  return {
    packages,
    lockfile: sum !== null ? 'go.sum' : 'go.mod',
    direct: requires.filter((r) => !r.indirect).map((r) => r.path),
  };
}

interface ComposerPackage {
  name?: unknown;
  version?: unknown;
  license?: unknown;
  require?: Record<string, unknown>;
  dist?: { shasum?: unknown };
}

/** Platform requirements (php, ext-*, lib-*, composer itself): not packages. */
const isPlatform = (name: string): boolean =>
  name === 'php' || name === 'composer' || /^(ext|lib|php)-/.test(name) || name === 'composer-plugin-api';

/** PHP: composer.lock's packages and packages-dev, with licences, requirements and the dist's sha1. */
export function composerPackages(dir: string): StackPackages {
  const text = readText(path.join(dir, 'composer.lock'));
  if (text === null) return { packages: [], lockfile: null, direct: [] };
  let lock: { packages?: ComposerPackage[]; 'packages-dev'?: ComposerPackage[] };
  try {
    lock = JSON.parse(text) as typeof lock;
  } catch {
    return { packages: [], lockfile: null, direct: [] };
  }
  const packages: StackPackage[] = [];
  for (const [list, development] of [
    [lock.packages ?? [], false],
    [lock['packages-dev'] ?? [], true],
  ] as const) {
    for (const p of list) {
      if (typeof p.name !== 'string' || typeof p.version !== 'string') continue;
      const shasum =
        typeof p.dist?.shasum === 'string' && /^[0-9a-f]{40}$/.test(p.dist.shasum) ? p.dist.shasum : null;
      packages.push({
        type: 'composer',
        name: p.name,
        version: p.version,
        licenses: Array.isArray(p.license) ? p.license.filter((l): l is string => typeof l === 'string') : [],
        requires: Object.keys(p.require ?? {}).filter((n) => !isPlatform(n)),
        ...(shasum ? { hash: { alg: 'SHA-1', hex: shasum } } : {}),
        ...(development ? { development } : {}),
      });
    }
  }
  let direct: string[] = [];
  try {
    const manifest = JSON.parse(readText(path.join(dir, 'composer.json')) ?? '{}') as {
      require?: Record<string, unknown>;
      'require-dev'?: Record<string, unknown>;
    };
    direct = [...Object.keys(manifest.require ?? {}), ...Object.keys(manifest['require-dev'] ?? {})].filter(
      (n) => !isPlatform(n),
    );
  } catch {
    direct = [];
  }
  return { packages, lockfile: 'composer.lock', direct };
}

/** The packages of a build of `stack` (null for JavaScript, which sbom.ts reads from node_modules). */
export function stackPackages(
  stack: string | undefined,
  dir: string,
  venv: string | null,
): StackPackages | null {
  switch (stack) {
    case 'python':
      return pythonPackages(dir, venv);
    case 'go':
      return goPackages(dir);
    case 'php':
      return composerPackages(dir);
    default:
      return null;
  }
}
