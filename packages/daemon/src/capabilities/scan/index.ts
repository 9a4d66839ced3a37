import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatBytes, MB, type Blueprint, type Build, type ScanIssue, type ScanReport } from '@forge/shared';
import { walkFiles, type WalkedFile } from '../../fs/walk.ts';
import { importsOf, loadTypeScript, packageOf, SOURCE_EXTENSIONS } from './imports.ts';
import { parseJson } from './jsonc.ts';
import {
  Aliases,
  Manifests,
  addBundlerAliases,
  addTsconfigAliases,
  manifestOf,
  type Manifest,
} from './manifests.ts';
import { scriptIssues } from './scripts.ts';
import { envSecrets, isEnvFile, isKeyStore, textSecrets, type SecretFinding } from './secrets.ts';
import { sandboxedRunner, typeCheck, type ScanRunner } from './type-check.ts';

export { formatScanReport } from './format.ts';
export { sandboxedRunner, type ScanRunner, type ScanCommand } from './type-check.ts';
export { importsOf, packageOf, loadTypeScript, type ImportRef } from './imports.ts';

/**
 * ScanBot's scan of a project, offline: imports nobody declared, scripts that are missing, JSON
 * configs that do not parse, committed secrets (named, never quoted), oversized files, type errors
 * (with the project's own TypeScript, when its dependencies are installed) and the last build's
 * diagnosis. Bounded: it lists and reads at most so many files and bytes, and says when it stopped.
 */

/** Entries listed (files and folders); past this the scan says it saw only part of the project. */
export const SCAN_MAX_ENTRIES = 50_000;
/** Files read. */
export const SCAN_MAX_FILES = 5_000;
/** Bytes read in all. */
export const SCAN_MAX_BYTES = 32 * MB;
/** A file larger than this is not read (it is reported as oversized where that applies). */
export const SCAN_MAX_FILE_BYTES = 1 * MB;
/** Any file over this is oversized; in src/ the bound is lower. */
export const OVERSIZED_BYTES = 5 * MB;
export const OVERSIZED_SRC_BYTES = 1 * MB;
/** Findings of one kind listed one by one; the rest are counted in one line. */
export const SCAN_MAX_PER_KIND = 50;

/** Folders never scanned: installs, version control, build outputs and caches. */
const SKIPPED_DIRS = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  '.git',
  '.hg',
  '.svn',
  'dist',
  'build',
  'out',
  '.next',
  '.nuxt',
  '.output',
  '.svelte-kit',
  '.astro',
  '.angular',
  '.turbo',
  '.vercel',
  '.netlify',
  '.cache',
  '.parcel-cache',
  '.yarn',
  '.pnpm-store',
  'coverage',
]);

/** Output folder names that are sources when they sit inside src/ (src/build/…). */
const OUTPUT_NAMES = new Set(['dist', 'build', 'out']);

function isSkippedDir(rel: string): boolean {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  if (!SKIPPED_DIRS.has(name)) return false;
  return !(OUTPUT_NAMES.has(name) && rel.split('/').includes('src'));
}

/** Lockfiles: large, machine-written, never holding a secret or an import. */
const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
]);

/** Files whose content is never text worth reading. */
const BINARY =
  /\.(?:png|jpe?g|gif|webp|avif|ico|bmp|tiff?|psd|mp[34]|m4a|wav|ogg|webm|mov|avi|woff2?|ttf|otf|eot|zip|gz|tgz|bz2|xz|7z|rar|jar|war|exe|dll|so|dylib|node|wasm|pdf|sqlite3?|db|bin|lockb|class|pyc)$/i;

/** JSON configs checked, and whether their dialect allows comments (JSONC). */
function jsonDialect(base: string): { jsonc: boolean } | null {
  if (base === 'package.json' || base === 'composer.json' || base === 'app.json') return { jsonc: false };
  if (/^(?:ts|js)config(?:\..+)?\.json$/.test(base)) return { jsonc: true };
  if (base === '.babelrc' || base === '.babelrc.json' || base === '.eslintrc.json') return { jsonc: true };
  return null;
}

const isSource = (rel: string): boolean =>
  SOURCE_EXTENSIONS.some((ext) => rel.endsWith(ext)) && !rel.endsWith('.d.mts') && !rel.endsWith('.d.cts');
const isBundlerConfig = (base: string): boolean =>
  /^(?:vite|vitest|webpack|nuxt|svelte|astro|rollup|rsbuild|vue)\.config\.[cm]?[jt]s$/.test(base);

export interface ScanOptions {
  /** The project's plan (its app folder, package manager, output dir), when it has one. */
  blueprint: Blueprint | null;
  /** The project's newest build when it failed: its diagnosis is reported. */
  lastFailedBuild?: Build | null;
  /** Run the project's own tsc when its dependencies are installed (default true). */
  typeCheck?: boolean;
  /** How commands run (default: the build runner, sandboxed). */
  run?: ScanRunner;
  signal?: AbortSignal;
  /** The name the report gives the project (default: its folder's name). */
  projectName?: string;
  /** Bounds other than the defaults (SCAN_MAX_ENTRIES, SCAN_MAX_FILES, SCAN_MAX_BYTES). */
  limits?: Partial<ScanLimits>;
}

export interface ScanLimits {
  maxEntries: number;
  maxFiles: number;
  maxBytes: number;
}

/** The command that adds a package with the project's package manager. */
const addCommand = (pm: Blueprint['packageManager'], name: string): string =>
  pm === 'pnpm' || pm === 'yarn' || pm === 'bun' ? `${pm} add ${name}` : `npm install ${name}`;

/** Which of the listed files are read, in order: configs first, then sources, then other text. */
function readOrder(files: WalkedFile[]): WalkedFile[] {
  const rank = (f: WalkedFile): number => {
    const base = f.name;
    if (jsonDialect(base) || isBundlerConfig(base) || isEnvFile(f.rel)) return 0;
    if (isSource(f.rel)) return 1;
    return 2;
  };
  return files
    .filter((f) => (f.size ?? 0) <= SCAN_MAX_FILE_BYTES && !BINARY.test(f.name) && !LOCKFILES.has(f.name))
    .map((f, i) => ({ f, i, r: rank(f) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map(({ f }) => f);
}

/** Scan a project folder. Never throws for what is in the project; only a missing folder rejects. */
export async function scanProject(projectDir: string, opts: ScanOptions): Promise<ScanReport> {
  const started = performance.now();
  const scannedAt = new Date().toISOString();
  const blueprint = opts.blueprint;
  const appDir = blueprint && blueprint.appDir !== '.' ? blueprint.appDir : '';
  const outputDir = blueprint?.outputDir && blueprint.outputDir !== '.' ? blueprint.outputDir : null;
  const bounds: ScanLimits = {
    maxEntries: SCAN_MAX_ENTRIES,
    maxFiles: SCAN_MAX_FILES,
    maxBytes: SCAN_MAX_BYTES,
    ...opts.limits,
  };
  const limits: string[] = [];

  const listing = await walkFiles(projectDir, {
    stat: true,
    maxEntries: bounds.maxEntries,
    exclude: (rel, isDir) => isDir && (rel === outputDir || isSkippedDir(rel)),
  });
  if (listing.truncated) limits.push(`only the first ${bounds.maxEntries} files and folders were listed`);
  const files = listing.files;
  const present = new Set<string>();
  for (const f of files) {
    present.add(f.rel);
    for (let dir = path.posix.dirname(f.rel); dir !== '.'; dir = path.posix.dirname(dir)) {
      if (present.has(dir)) break;
      present.add(dir);
    }
  }

  // Read what the checks need, within the bounds.
  const texts = new Map<string, string>();
  let bytes = 0;
  for (const file of readOrder(files)) {
    if (opts.signal?.aborted) break;
    if (texts.size >= bounds.maxFiles) {
      limits.push(`only ${bounds.maxFiles} files were read`);
      break;
    }
    if (bytes + (file.size ?? 0) > bounds.maxBytes) {
      limits.push(`only ${formatBytes(bounds.maxBytes)} of files were read`);
      break;
    }
    const buffer = await readFile(file.abs).catch(() => null);
    if (!buffer) continue;
    bytes += buffer.length;
    // Binary content under a text-looking name: nothing to read in it.
    if (buffer.subarray(0, 8000).includes(0)) continue;
    texts.set(file.rel, buffer.toString('utf8').replace(/^\uFEFF/, ''));
  }

  const issues: ScanIssue[] = [];

  // Invalid JSON configs; package.json files and aliases from those that parse.
  const manifests = new Manifests();
  const aliases = new Aliases();
  for (const [rel, text] of texts) {
    const base = path.posix.basename(rel);
    const dialect = jsonDialect(base);
    if (dialect) {
      const parsed = parseJson(text, dialect);
      if (!parsed.ok) {
        issues.push({
          kind: 'invalid-json',
          severity: base === 'package.json' || base.startsWith('tsconfig') ? 'error' : 'warn',
          summary: `${rel}:${parsed.line} is not valid ${dialect.jsonc ? 'JSON (comments and trailing commas allowed)' : 'JSON'}: ${parsed.message}.`,
          file: rel,
          line: parsed.line,
          suggestion: `Fix ${base} at line ${parsed.line}; the tools that read it stop there.`,
        });
        if (base === 'package.json') manifests.addBroken(rel);
        continue;
      }
      if (base === 'package.json') manifests.add(manifestOf(rel, parsed.value));
      else if (/^(?:ts|js)config/.test(base)) addTsconfigAliases(aliases, rel, parsed.value);
    } else if (isBundlerConfig(base)) addBundlerAliases(aliases, text);
  }

  issues.push(...(await undeclaredImports(projectDir, texts, manifests, aliases, present, blueprint)));

  // Missing scripts, for the app Forge builds.
  const appManifest = manifests.get(appDir);
  const brokenApp = !appManifest && present.has(appDir ? `${appDir}/package.json` : 'package.json');
  if (!brokenApp) {
    issues.push(
      ...scriptIssues({
        manifest: appManifest,
        appDir,
        hasIndexHtml: present.has(appDir ? `${appDir}/index.html` : 'index.html'),
        blueprint,
      }),
    );
  }

  // Committed secrets, by name.
  for (const [rel, text] of texts) {
    const env = isEnvFile(rel);
    for (const finding of env ? envSecrets(text) : textSecrets(text))
      issues.push(secretIssue(rel, finding, env));
  }
  for (const f of files) {
    if (isKeyStore(f.rel)) {
      issues.push({
        kind: 'committed-secret',
        severity: 'error',
        summary: `${f.rel} is a key store (it holds private keys) committed with the project.`,
        file: f.rel,
        suggestion: 'Remove it from the project and keep it out of uploads; rotate the keys it holds.',
      });
    }
  }

  // Oversized files.
  for (const f of files) {
    const size = f.size ?? 0;
    const inSrc = f.rel.split('/').includes('src');
    if (size > OVERSIZED_BYTES || (inSrc && size > OVERSIZED_SRC_BYTES)) {
      issues.push({
        kind: 'oversized-file',
        severity: 'warn',
        summary: `${f.rel} is ${(size / MB).toFixed(1)} MB${inSrc && size <= OVERSIZED_BYTES ? ' (over 1 MB in src/)' : ''}.`,
        file: f.rel,
        suggestion: inSrc
          ? 'Large files in src/ slow every build and end up in the bundle: move assets to public/ or load them at run time.'
          : 'Keep large assets out of the project (a CDN, Git LFS), or make sure the build does not need them.',
      });
    }
  }

  // Type errors, with the project's own TypeScript.
  let typeChecked = false;
  if ((opts.typeCheck ?? true) && !opts.signal?.aborted) {
    const checked = await typeCheck(projectDir, appDir, opts.run ?? sandboxedRunner, opts.signal);
    typeChecked = checked.ran;
    issues.push(...checked.issues);
  }

  // What the last failed build died of.
  const failed = opts.lastFailedBuild;
  if (failed && (failed.diagnosis || failed.error)) {
    const d = failed.diagnosis;
    const location = d ? d : failed.error?.location;
    issues.push({
      kind: 'last-failure',
      severity: 'error',
      summary: `The last build (${failed.id}) ${failed.status === 'timed-out' ? 'timed out' : 'failed'}: ${d ? d.summary : failed.error!.message}`,
      ...(location?.file ? { file: location.file } : {}),
      ...(location?.line ? { line: location.line } : {}),
      ...(d?.suggestion ? { suggestion: d.suggestion } : {}),
    });
  }

  const report: ScanReport = {
    projectName: opts.projectName ?? path.basename(projectDir),
    scannedAt,
    durationMs: Math.round(performance.now() - started),
    files: texts.size,
    typeChecked,
    issues: capPerKind(sortIssues(issues)),
  };
  return limits.length > 0 ? { ...report, incomplete: `${[...new Set(limits)].join('; ')}.` } : report;
}

function secretIssue(rel: string, finding: SecretFinding, env: boolean): ScanIssue {
  const what =
    finding.name && !finding.kind.includes(finding.name) ? `${finding.kind} (${finding.name})` : finding.kind;
  return {
    kind: 'committed-secret',
    severity: finding.certain ? 'error' : 'info',
    summary: env
      ? `${rel}:${finding.line} commits ${what}${finding.certain ? '' : ' (fine if it is not a secret)'}.`
      : `${rel}:${finding.line} contains ${what}.`,
    file: rel,
    line: finding.line,
    suggestion: env
      ? 'Keep real values out of the project: commit a .env.example with the names only, and rotate any secret that was uploaded.'
      : 'Read it from the environment instead (process.env / import.meta.env), and rotate it: it has been shared with the code.',
  };
}

/** Imports of packages that no package.json on the way up declares. */
async function undeclaredImports(
  projectDir: string,
  texts: Map<string, string>,
  manifests: Manifests,
  aliases: Aliases,
  present: Set<string>,
  blueprint: Blueprint | null,
): Promise<ScanIssue[]> {
  const sources = [...texts.keys()].filter(isSource);
  if (sources.length === 0) return [];
  const ts = await loadTypeScript();
  const read = sources.map((rel) => ({ rel, found: importsOf(ts, rel, texts.get(rel)!) }));
  const ambient = new Set(read.flatMap((r) => r.found.ambientModules));
  /** Whether a bare specifier names a file or folder of a base directory (tsconfig baseUrl). */
  const inBaseDir = (specifier: string): boolean => {
    const first = specifier.split('/')[0]!;
    for (const base of aliases.baseDirs) {
      const candidate = base ? `${base}/${first}` : first;
      if (present.has(candidate)) return true;
      if (SOURCE_EXTENSIONS.some((ext) => present.has(candidate + ext))) return true;
    }
    return false;
  };

  /** One finding per (manifest, package): where it is imported first and how many files do. */
  const missing = new Map<
    string,
    { manifest: Manifest; name: string; file: string; line: number; files: Set<string> }
  >();
  for (const { rel, found } of read) {
    // Declaration files are mostly generated (an outDir of .d.ts): only their ambient modules count.
    if (/\.d\.[cm]?ts$/.test(rel)) continue;
    const chain = manifests.chain(rel);
    if (!chain || chain.length === 0) continue;
    for (const ref of found.imports) {
      const name = packageOf(ref.specifier);
      if (!name) continue;
      if (ambient.has(ref.specifier) || ambient.has(name)) continue;
      if (manifests.names.has(name) || aliases.matches(ref.specifier) || inBaseDir(ref.specifier)) continue;
      const typesName = `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
      const declared = chain.some((m) => m.deps.has(name) || (ref.typeOnly && m.deps.has(typesName)));
      if (declared) continue;
      const key = `${chain[0]!.file}\0${name}`;
      const entry = missing.get(key);
      if (entry) entry.files.add(rel);
      else missing.set(key, { manifest: chain[0]!, name, file: rel, line: ref.line, files: new Set([rel]) });
    }
  }

  const pm = blueprint?.packageManager ?? 'npm';
  return [...missing.values()].map(({ manifest, name, file, line, files }) => {
    const installed = isInstalled(projectDir, manifest.dir, name);
    const more = files.size > 1 ? ` (and ${files.size - 1} more file${files.size > 2 ? 's' : ''})` : '';
    return {
      kind: 'undeclared-import',
      severity: installed ? 'warn' : 'error',
      summary: `${name} is imported by ${file}:${line}${more} but ${manifest.file} does not declare it.`,
      file,
      line,
      suggestion: `Add it with \`${addCommand(pm, name)}\`${manifest.dir ? ` in ${manifest.dir}` : ''}, or say "fix modules" and RepairBot adds it.`,
    } satisfies ScanIssue;
  });
}

/** Whether Node would find `name` from `dir` (its node_modules or one above it in the project). */
function isInstalled(projectDir: string, dir: string, name: string): boolean {
  for (let at = dir; ; at = path.posix.dirname(at)) {
    const base = at === '.' ? '' : at;
    if (existsSync(path.join(projectDir, base, 'node_modules', name, 'package.json'))) return true;
    if (base === '') return false;
  }
}

const SEVERITY_ORDER = { error: 0, warn: 1, info: 2 } as const;

function sortIssues(issues: ScanIssue[]): ScanIssue[] {
  return issues
    .map((issue, i) => ({ issue, i }))
    .sort((a, b) => SEVERITY_ORDER[a.issue.severity] - SEVERITY_ORDER[b.issue.severity] || a.i - b.i)
    .map(({ issue }) => issue);
}

/** At most SCAN_MAX_PER_KIND findings of one kind, then one line counting the rest. */
function capPerKind(issues: ScanIssue[]): ScanIssue[] {
  const counts = new Map<string, number>();
  const dropped = new Map<ScanIssue['kind'], number>();
  const kept: ScanIssue[] = [];
  for (const issue of issues) {
    const n = (counts.get(issue.kind) ?? 0) + 1;
    counts.set(issue.kind, n);
    if (n <= SCAN_MAX_PER_KIND) kept.push(issue);
    else dropped.set(issue.kind, (dropped.get(issue.kind) ?? 0) + 1);
  }
  for (const [kind, n] of dropped) {
    kept.push({ kind, severity: 'info', summary: `…and ${n} more ${kind.replace('-', ' ')} findings.` });
  }
  return kept;
}
