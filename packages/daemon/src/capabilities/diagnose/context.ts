import fs from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { realWithin } from '../../fs/contain.ts';
import { sanitizeLine, type Blueprint, type BuildError, type Diagnosis, type StepName } from '@forge/shared';
import { findFirstError, PathMap, type ErrorLocation, type FirstError } from '../tool-output/first-error.ts';

/** What diagnose() is given: the failure, what the failed step printed, and where the project is. */
export interface DiagnoseInput {
  /** The step that failed ('toolchain' | 'install' | 'build' | 'preview' | 'detect' | …), or null. */
  step: StepName | null;
  status: 'failed' | 'timed-out';
  /** The build's error: code, message, firstLine, location, tail, probableCause. */
  error: BuildError;
  /** Output lines of the failed step's commands, oldest first (at most the last 5,000); may hold ANSI codes. */
  lines: string[];
  /** The build plan, or null when detection failed. */
  blueprint: Blueprint | null;
  /** Absolute project root: files are read to confirm a cause, and places are relative to it. */
  projectDir: string;
  /** When the failed step started (ms): what it wrote is newer. Unknown: nothing is said to be its. */
  stepStartedAt?: number | null;
}

/** At most this many lines are read (the newest): a failure is explained near its end. */
export const MAX_LINES = 5_000;
/** A line is cut to this many characters before any rule reads it (minified bundles print 100 KB lines). */
export const MAX_LINE = 2_000;
/** Other files a rule reads to confirm a claim (a lockfile, an env template, a source file) stop here. */
const MAX_TEXT = 8 * 1024 * 1024;
/** package.json files larger than this are not read (detection refuses them too). */
const MAX_PACKAGE_JSON = 1024 * 1024;

/** The dependency fields of package.json a package may be declared in. */
const DEP_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

interface PackageJson {
  /** Project-relative path of the file. */
  file: string;
  /** Its "name": the uploaded project itself (or its workspace root), never a dependency to advise about. */
  name: string | null;
  scripts: Record<string, string>;
  deps: Set<string>;
  /** What each dependency field asks for, by package name (the first field that declares it). */
  specs: Map<string, { field: string; spec: string }>;
}

/** A place without its line: the file an error names as importer. */
export type Place = Omit<ErrorLocation, 'line'> & { line?: number };

/**
 * Everything a rule reads: the output cleaned and bounded, the project's folders, its package.json
 * files, and the place of a line as first-error.ts finds it.
 */
export class Context {
  readonly input: DiagnoseInput;
  /** The output, colour codes removed, at most MAX_LINES lines of at most MAX_LINE characters. */
  readonly lines: string[];
  readonly paths: PathMap;
  readonly projectDir: string;
  /** Absolute folder the failed step's commands ran in. */
  readonly cwd: string;
  /** Project-relative folders of the app and of its install ("." for a single app). */
  readonly appDir: string;
  readonly installDir: string;
  #packages: Promise<PackageJson[]> | undefined;
  #first: FirstError | null | undefined;

  constructor(input: DiagnoseInput) {
    this.input = input;
    this.projectDir = path.resolve(input.projectDir);
    this.appDir = input.blueprint?.appDir ?? '.';
    this.installDir = input.blueprint?.installDir ?? '.';
    this.cwd = path.join(this.projectDir, input.step === 'install' ? this.installDir : this.appDir);
    this.paths = new PathMap({ projectDir: this.projectDir, cwd: this.cwd });
    const recent = input.lines.length > MAX_LINES ? input.lines.slice(-MAX_LINES) : input.lines;
    const lines = recent.map((line) => sanitizeLine(line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line));
    // A message the runner wrote (a preview that could not listen, a toolchain that could not be
    // fetched) may state the cause when the output does not.
    const { message } = input.error;
    if (message && !lines.some((line) => line.includes(message)))
      lines.push(...message.split('\n').slice(0, 20));
    this.lines = lines.map((line) => line.trimEnd());
  }

  /** The first error line and its place: the build's own, else found again in the lines. */
  first(): FirstError | null {
    if (this.#first !== undefined) return this.#first;
    const { firstLine, location } = this.input.error;
    this.#first = firstLine
      ? { firstLine, ...(location ? { location } : {}) }
      : findFirstError(this.lines, { projectDir: this.projectDir, cwd: this.cwd });
    return this.#first;
  }

  /**
   * The place the error stated on line `i` points at, found by first-error.ts in the lines around it
   * (a tool prints the place on the line, under it, or — webpack, Next — just above it). `about`, when
   * given, must appear in the error first-error finds, so a neighbouring error's place is not taken.
   */
  locate(i: number, about?: string): ErrorLocation | undefined {
    for (const back of [0, 1, 2, 3]) {
      const start = i - back;
      if (start < 0) break;
      const found = findFirstError(this.lines.slice(start, i + 16), {
        projectDir: this.projectDir,
        cwd: this.cwd,
      });
      if (found?.location && (about === undefined || found.firstLine.includes(about))) return found.location;
    }
    return undefined;
  }

  /** A file the output names (absolute, file:// or relative to where the command ran) inside the project. */
  file(name: string): string | undefined {
    return this.paths.place(name, 1)?.file;
  }

  /** Project-relative path → absolute. */
  abs(rel: string): string {
    return path.join(this.projectDir, rel);
  }

  /** Absolute path → project-relative with forward slashes, or undefined outside the project. */
  rel(absolute: string): string | undefined {
    const rel = path.relative(this.projectDir, absolute);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return rel === '' ? '.' : rel.split(path.sep).join('/');
  }

  /** The package.json files that decide what is declared: the app's, the install folder's, the root's. */
  packages(): Promise<PackageJson[]> {
    this.#packages ??= (async () => {
      const dirs = [...new Set([this.appDir, this.installDir, '.'])];
      const found: PackageJson[] = [];
      for (const dir of dirs) {
        const file = path.posix.join(dir, 'package.json');
        const json = await readJson(this.abs(file));
        if (!json) continue;
        const deps = new Set<string>();
        const specs = new Map<string, { field: string; spec: string }>();
        for (const field of DEP_FIELDS) {
          const value = json[field];
          if (!value || typeof value !== 'object') continue;
          for (const [name, spec] of Object.entries(value)) {
            deps.add(name);
            if (typeof spec === 'string' && !specs.has(name)) specs.set(name, { field, spec });
          }
        }
        const scripts: Record<string, string> = {};
        if (json.scripts && typeof json.scripts === 'object') {
          for (const [name, script] of Object.entries(json.scripts)) {
            if (typeof script === 'string') scripts[name] = script;
          }
        }
        found.push({ file, name: typeof json.name === 'string' ? json.name : null, scripts, deps, specs });
      }
      return found;
    })();
    return this.#packages;
  }

  /** The project's own package names (the app's, the install folder's, the root's package.json "name"). */
  async ownNames(): Promise<Set<string>> {
    return new Set((await this.packages()).flatMap((pkg) => (pkg.name ? [pkg.name] : [])));
  }

  /** The scripts of the package.json at project-relative `file`, or null when it is not there. */
  async scriptsOf(file: string): Promise<Record<string, string> | null> {
    const found = (await this.packages()).find((pkg) => pkg.file === path.posix.normalize(file));
    if (found) return found.scripts;
    const json = await readJson(this.abs(file));
    if (!json) return null;
    const scripts: Record<string, string> = {};
    if (json.scripts && typeof json.scripts === 'object') {
      for (const [name, script] of Object.entries(json.scripts)) {
        if (typeof script === 'string') scripts[name] = script;
      }
    }
    return scripts;
  }

  /** The app's package.json path (project-relative), whether or not it exists. */
  get appPackageJson(): string {
    return path.posix.join(this.appDir, 'package.json');
  }

  /** Whether a package.json of the app or its workspace declares `name`. */
  async declared(name: string): Promise<boolean> {
    return (await this.packages()).some((pkg) => pkg.deps.has(name));
  }

  /**
   * Where `name` is declared and what it asks for: the app's package.json first, then its install
   * folder's and the root's (the order of packages()), or null when none declares it.
   */
  async declaration(name: string): Promise<{ file: string; field: string; spec: string } | null> {
    for (const pkg of await this.packages()) {
      const found = pkg.specs.get(name);
      if (found) return { file: pkg.file, ...found };
    }
    return null;
  }

  /** The script `name` of the app's package.json. */
  async script(name: string): Promise<string | undefined> {
    const app = (await this.packages()).find((pkg) => pkg.file === this.appPackageJson);
    return app?.scripts[name];
  }

  /** Whether `name` is in a node_modules from `fromDir` up to the project root (as Node looks). */
  installed(name: string, fromDir: string = this.cwd): boolean {
    let dir = path.resolve(fromDir);
    for (;;) {
      if (fs.existsSync(path.join(dir, 'node_modules', name, 'package.json'))) return true;
      if (dir === this.projectDir || !dir.startsWith(this.projectDir)) return false;
      const up = path.dirname(dir);
      if (up === dir) return false;
      dir = up;
    }
  }

  /**
   * The text of project file `rel` when it is a regular file inside the project (links followed, never
   * beyond it) of at most `max` bytes; null otherwise. Rules read only what confirms a claim with it.
   */
  async readText(rel: string, max = MAX_TEXT): Promise<string | null> {
    try {
      const root = await realpath(this.projectDir);
      const real = await realWithin(root, path.join(root, rel));
      if (real === null) return null;
      const stat = await fs.promises.stat(real);
      if (!stat.isFile() || stat.size > max) return null;
      return await readFile(real, 'utf8');
    } catch {
      return null;
    }
  }

  /** The index of the first line matching `pattern`, or -1 (lines are short: see MAX_LINE). */
  find(pattern: RegExp, from = 0): number {
    for (let i = from; i < this.lines.length; i += 1) if (pattern.test(this.lines[i]!)) return i;
    return -1;
  }
}

async function readJson(file: string): Promise<Record<string, unknown> | null> {
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile() || stat.size > MAX_PACKAGE_JSON) return null;
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A place as Diagnosis fields. */
export function at(place: Place | undefined): Pick<Diagnosis, 'file' | 'line' | 'column'> {
  if (!place) return {};
  return {
    file: place.file,
    ...(place.line !== undefined ? { line: place.line } : {}),
    ...(place.column !== undefined ? { column: place.column } : {}),
  };
}

/** "src/App.tsx:3:7", "src/App.tsx", or "" for no place. */
export function placeText(place: Place | undefined): string {
  if (!place) return '';
  if (place.line === undefined) return place.file;
  return `${place.file}:${place.line}${place.column !== undefined ? `:${place.column}` : ''}`;
}

/** "a", "a and b", "a, b and c" */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** What to say when RepairBot can make the repair. */
export const REPAIR_HINT = 'RepairBot can do it: turn on autoRepair or run forge fix.';
