import path from 'node:path';
import { LOG_DIR } from '@forge/shared';

/**
 * Where things live inside FORGE_HOME (docs/pipeline.md#where-things-live-in-forge_home). One place, so no
 * feature builds these paths by hand.
 */
export interface HomeLayout {
  home: string;
  /** Extracted sources; install and build run here. */
  projectsDir: string;
  projectDir(name: string): string;
  /** The stored output of the last successful build of each project (served and zipped from here). */
  outputDir(name: string): string;
  /** node_modules kept aside between uploads of the same project, for reuse. */
  depsDir(name: string): string;
  /** Scratch space on the same file system as projects/ (staging, uploads in flight). */
  tmpDir: string;
  /**
   * Package managers fetched from the npm registry, one folder per `<package>@<version>`, shared by
   * every project and reused offline after the first fetch.
   */
  toolchainsDir: string;
  /**
   * pnpm's content-addressed store for every pnpm install: on the same file system as projects/, so
   * node_modules files are hard links into it and a project that shares dependencies installs in a second.
   */
  storeDir: string;
  /**
   * The package managers' caches (npm, pnpm metadata, Yarn 1, Yarn Berry, bun, corepack), one
   * folder each, Forge's own (capabilities/exec/build-home.ts forgeCaches).
   */
  cachesDir: string;
  /** Files as they were before RepairBot changed them, one folder per repair (for undo). */
  repairsDir(name: string): string;
  /**
   * The home folder a project's commands get (HOME, ~/.config, ~/.cache): writable, the project's
   * own, kept between its builds; the package-manager caches are FORGE_HOME/caches (cachesDir).
   */
  buildHome(name: string): string;
  /** Each successful build's artifact, SBOM, provenance and source ZIP, one folder per build (docs/artifacts.md). */
  artifactsDir(name: string): string;
  /**
   * A plain static site's or server app's tree as an earlier build had it, served after a rollback
   * to that build (`tree/`, and `build`: the id it is of; features/artifacts/rollback.ts).
   */
  rolledBackDir(name: string): string;
  /** The source of each project's last failed builds, one `<build id>.zip` each, compared with its last green build (features/why-red). */
  failedSourcesDir(name: string): string;
  /**
   * Where LogBot moves old builds' log lines out of the store, one `<build id>.log` each; the build
   * repository reads them back (engine/log-archive.ts).
   */
  buildLogsDir: string;
}

export function homeLayout(home: string): HomeLayout {
  const projectsDir = path.join(home, 'projects');
  return {
    home,
    projectsDir,
    projectDir: (name) => path.join(projectsDir, name),
    outputDir: (name) => path.join(home, 'outputs', name),
    depsDir: (name) => path.join(home, 'deps', name),
    tmpDir: path.join(home, 'tmp'),
    toolchainsDir: path.join(home, 'toolchains'),
    storeDir: path.join(home, 'store'),
    cachesDir: path.join(home, 'caches'),
    repairsDir: (name) => path.join(home, 'repairs', name),
    buildHome: (name) => path.join(home, 'homes', name),
    artifactsDir: (name) => path.join(home, 'artifacts', name),
    failedSourcesDir: (name) => path.join(home, 'failed-sources', name),
    rolledBackDir: (name) => path.join(home, 'rolled-back', name),
    buildLogsDir: path.join(home, LOG_DIR, 'builds'),
  };
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;
export const MAX_PROJECT_NAME = 64;

/**
 * Project name from an uploaded file name (docs/decisions.md): drop the .zip extension, turn every
 * run of characters other than letters, digits, dot, dash and underscore into one dash and every run
 * of dots into one dot, trim dashes and dots from the ends, cut to 64 characters. Empty → "project";
 * Windows device names get "-project".
 */
export function projectNameFromFile(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/\.zip$/i, '');
  let name = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    // "a..b" (or "a‥b", which NFKD makes "a..b") is never a valid name: ".." reads as a parent folder.
    .replace(/\.{2,}/g, '.')
    .replace(/^[-._]+|[-._]+$/g, '')
    .slice(0, MAX_PROJECT_NAME)
    .replace(/[-._]+$/g, '');
  if (!name) name = 'project';
  if (WINDOWS_RESERVED.test(name)) name = `${name}-project`;
  return name;
}

/** A project name as it may appear in a URL or on disk: exactly what projectNameFromFile can produce. */
export const isValidProjectName = (name: string): boolean =>
  name.length > 0 &&
  name.length <= MAX_PROJECT_NAME + '-project'.length &&
  /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) &&
  !name.includes('..');
