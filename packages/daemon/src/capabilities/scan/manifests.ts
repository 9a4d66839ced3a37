import path from 'node:path';

/**
 * What decides whether an import is declared: every package.json of the project (the nearest one and
 * those above it: Node resolves through them all, and a workspace's root holds shared tools), the
 * names of the project's own packages (a workspace member is not fetched from the registry), and the
 * aliases its tsconfig/jsconfig `paths` and bundler configs define (`@/components` is a folder).
 */

export const DEPENDENCY_FIELDS = [
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'optionalDependencies',
] as const;

export interface Manifest {
  /** Project-relative folder of the package.json ("" for the root). */
  dir: string;
  /** Project-relative path of the package.json. */
  file: string;
  name: string | null;
  /** Every package named in a dependency field. */
  deps: Set<string>;
  scripts: Record<string, string>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A parsed package.json as ScanBot needs it (fields of the wrong type read as absent). */
export function manifestOf(file: string, json: unknown): Manifest {
  const pkg = isRecord(json) ? json : {};
  const deps = new Set<string>();
  for (const field of DEPENDENCY_FIELDS) {
    const value = pkg[field];
    if (isRecord(value)) for (const name of Object.keys(value)) deps.add(name);
  }
  const scripts: Record<string, string> = {};
  if (isRecord(pkg.scripts)) {
    for (const [key, value] of Object.entries(pkg.scripts))
      if (typeof value === 'string') scripts[key] = value;
  }
  const dir = path.posix.dirname(file);
  return {
    dir: dir === '.' ? '' : dir,
    file,
    name: typeof pkg.name === 'string' ? pkg.name : null,
    deps,
    scripts,
  };
}

/** The project's package.json files, looked up by folder. */
export class Manifests {
  private readonly byDir = new Map<string, Manifest>();
  /** Folders whose package.json could not be read (invalid JSON): their files are not judged. */
  private readonly broken = new Set<string>();
  /** Names of the project's own packages. */
  readonly names = new Set<string>();

  add(manifest: Manifest): void {
    this.byDir.set(manifest.dir, manifest);
    if (manifest.name) this.names.add(manifest.name);
  }

  addBroken(file: string): void {
    const dir = path.posix.dirname(file);
    this.broken.add(dir === '.' ? '' : dir);
  }

  get(dir: string): Manifest | null {
    return this.byDir.get(dir) ?? null;
  }

  /**
   * The package.json files that apply to a file, nearest first (the file's folder, then each one
   * above it up to the project root); null when the nearest one is broken.
   */
  chain(fileRel: string): Manifest[] | null {
    const chain: Manifest[] = [];
    let dir = path.posix.dirname(fileRel);
    for (;;) {
      const key = dir === '.' ? '' : dir;
      if (this.broken.has(key) && chain.length === 0) return null;
      const found = this.byDir.get(key);
      if (found) chain.push(found);
      if (key === '') break;
      dir = path.posix.dirname(dir);
    }
    return chain;
  }
}

/** Aliases that make a bare-looking specifier a path of the project. */
export class Aliases {
  /** Specifiers starting with one of these are aliases ("@/" from "@/*", "@lib/" from vite's "@lib"). */
  private readonly prefixes = new Set<string>();
  private readonly exact = new Set<string>();
  /** Project-relative folders bare specifiers resolve in (tsconfig baseUrl, `paths` "*"). */
  readonly baseDirs = new Set<string>();

  /** A tsconfig/jsconfig `paths` key ("@/*", "utils") */
  addPathsKey(key: string): void {
    const star = key.indexOf('*');
    if (star === -1) this.exact.add(key);
    else if (star > 0) this.prefixes.add(key.slice(0, star));
  }

  /** A bundler alias key (vite/webpack `resolve.alias`, svelte-kit `alias`): itself and below it. */
  addBundlerKey(key: string): void {
    if (!key) return;
    this.exact.add(key);
    this.prefixes.add(key.endsWith('/') ? key : `${key}/`);
  }

  matches(specifier: string): boolean {
    if (this.exact.has(specifier)) return true;
    for (const prefix of this.prefixes) if (specifier.startsWith(prefix)) return true;
    return false;
  }

  get size(): number {
    return this.prefixes.size + this.exact.size + this.baseDirs.size;
  }
}

/** Read `compilerOptions.baseUrl` and `paths` of a parsed tsconfig/jsconfig at project-relative `file`. */
export function addTsconfigAliases(aliases: Aliases, file: string, json: unknown): void {
  if (!isRecord(json) || !isRecord(json.compilerOptions)) return;
  const options = json.compilerOptions;
  const dir = path.posix.dirname(file);
  const base = typeof options.baseUrl === 'string' ? path.posix.join(dir, options.baseUrl) : null;
  if (base !== null) aliases.baseDirs.add(base === '.' ? '' : base);
  if (!isRecord(options.paths)) return;
  for (const [key, targets] of Object.entries(options.paths)) {
    if (key === '*') {
      // "*": ["src/*"] resolves every bare specifier in src/ first.
      for (const target of Array.isArray(targets) ? targets : []) {
        if (typeof target !== 'string' || !target.endsWith('/*')) continue;
        const resolved = path.posix.join(base ?? dir, target.slice(0, -2));
        aliases.baseDirs.add(resolved === '.' ? '' : resolved);
      }
    } else aliases.addPathsKey(key);
  }
}

/** The `{…}` or `[…]` block that starts at `open` in `text` (strings skipped), or null when unbalanced. */
function balancedBlock(text: string, open: number): string | null {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'" || ch === '`') {
      const close = text.indexOf(ch, i + 1);
      if (close === -1) return null;
      i = close;
    } else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return text.slice(open, i + 1);
    }
  }
  return null;
}

/** The literal start of an alias given as a regular expression (`/^@lib\//` → "@lib/"). */
function regexPrefix(source: string): string {
  let out = '';
  for (let i = source.startsWith('^') ? 1 : 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\' && i + 1 < source.length) out += source[++i];
    else if ('()[]{}.*+?|$'.includes(ch)) break;
    else out += ch;
  }
  return out;
}

/**
 * Alias keys of a bundler config read as text (it is never run): every `alias: { key: … }` and
 * `alias: [{ find: 'key', … }]` block, as Vite, webpack, Nuxt and SvelteKit write them.
 */
export function addBundlerAliases(aliases: Aliases, text: string): void {
  const start = /\balias(?:es)?\s*:\s*([{[])/g;
  let match: RegExpExecArray | null;
  while ((match = start.exec(text))) {
    const block = balancedBlock(text, match.index + match[0].length - 1);
    if (!block) continue;
    if (block.startsWith('[')) {
      const finds = /\bfind\s*:\s*(?:'([^']+)'|"([^"]+)"|`([^`$]+)`|\/((?:\\.|[^/\n])+)\/)/g;
      for (const f of block.matchAll(finds)) {
        const key = f[1] ?? f[2] ?? f[3] ?? (f[4] ? regexPrefix(f[4]) : '');
        if (key) aliases.addBundlerKey(key);
      }
    } else {
      const keys = /(?:^|[{,]\s*)(?:'([^']+)'|"([^"]+)"|([A-Za-z_$@~][\w$@~/.-]*))\s*:/g;
      for (const k of block.matchAll(keys)) {
        const key = k[1] ?? k[2] ?? k[3];
        if (key) aliases.addBundlerKey(key);
      }
    }
  }
}
