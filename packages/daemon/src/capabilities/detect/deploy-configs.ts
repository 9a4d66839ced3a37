/**
 * Hosting platforms' configs as evidence: netlify.toml, vercel.json, firebase.json, render.yaml,
 * amplify.yml, static.json and Procfile say where a site's output is, how it is built and how it
 * starts, in the words of the people who deploy it. Read as data (TOML, JSON, YAML), never run.
 *
 * A config applies to the folder it describes: its own folder, or — for a config at the project root
 * that names a base/root folder (Netlify `base`, Render `rootDir`, Amplify `appRoot`) — that folder.
 * Folders it names (publish, outputDirectory, public, staticPublishPath, baseDirectory, root) are
 * made relative to the app's folder.
 */
import { defaultLoadersSync } from 'cosmiconfig';
import { parse as parseToml } from 'smol-toml';
import type { Argv } from './command-line.ts';
import { projectDir } from './project-dir.ts';
import type { ProjectFiles } from './project-files.ts';

/** One setting a deploy config makes. */
export interface DeploySetting {
  /** The value: a folder relative to the app's folder, or a command as written. */
  value: string;
  /** The config file, relative to the app's folder ("netlify.toml", or "../netlify.toml" for the root's). */
  file: string;
  /** Where in the file, for rules: `publish`, `hosting.public`, `services[0].staticPublishPath`. */
  key: string;
}

/** What the deploy configs of one app folder say. The first config that names a setting gives it. */
export interface DeployConfig {
  /** The folder the platform serves. */
  publish: DeploySetting | null;
  /** Every other folder a config names that differs from `publish`, for the plan and the output search. */
  otherPublish: DeploySetting[];
  /** The platform's build command (shell text). */
  command: DeploySetting | null;
  /** The platform's start command for a web process (shell text). */
  start: DeploySetting | null;
  /** Configs that could not be read, with why. */
  unreadable: { file: string; reason: string }[];
}

/** A root config that moves the app elsewhere (Netlify `base`), for the app choice to weigh. */
export interface DeployBase {
  dir: string;
  file: string;
  key: string;
}

const NETLIFY = 'netlify.toml';
const VERCEL = 'vercel.json';
const FIREBASE = 'firebase.json';
const RENDER = 'render.yaml';
const AMPLIFY = 'amplify.yml';
const STATIC_JSON = 'static.json';
const PROCFILE = 'Procfile';

/** Deploy configs are small; anything larger is not one. */
const MAX_CONFIG_BYTES = 256 * 1024;

type Raw = Record<string, unknown>;
const isRecord = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** A folder as a config writes it ("/public", "./dist/", "docs") in canonical project-relative form. */
function configDir(value: string): string | null {
  const trimmed = value.trim().replace(/^\/+/, '');
  return trimmed === '' ? '.' : projectDir(trimmed);
}

/** One config file's settings, each with the folder (relative to the file's folder) it applies to. */
interface FileSettings {
  /** Folder the settings apply to, relative to the config's folder ("." for its own). */
  appDir: string;
  publish?: { value: string; key: string } | undefined;
  command?: { value: string; key: string } | undefined;
  start?: { value: string; key: string } | undefined;
  /** The key that named appDir, when not ".". */
  baseKey?: string;
}

type Reader = (content: string) => FileSettings[];

function readNetlify(content: string): FileSettings[] {
  const data = parseToml(content) as Raw;
  const build = isRecord(data.build) ? data.build : {};
  // A production deploy uses [context.production] over [build].
  const context = isRecord(data.context) && isRecord(data.context.production) ? data.context.production : {};
  const pick = (key: string) => {
    const fromContext = text(context[key]);
    if (fromContext) return { value: fromContext, key: `context.production.${key}` };
    const fromBuild = text(build[key]);
    return fromBuild ? { value: fromBuild, key: `build.${key}` } : undefined;
  };
  const base = pick('base');
  const baseDir = base ? configDir(base.value) : '.';
  if (baseDir === null) return [];
  let publish = pick('publish');
  // Netlify reads publish relative to base; older configs repeat the base in it ("docs/build").
  if (publish && baseDir !== '.') {
    const dir = configDir(publish.value);
    if (dir && dir.startsWith(`${baseDir}/`)) publish = { ...publish, value: dir.slice(baseDir.length + 1) };
  }
  return [
    {
      appDir: baseDir,
      publish,
      command: pick('command'),
      ...(base && baseDir !== '.' ? { baseKey: base.key } : {}),
    },
  ];
}

function readVercel(content: string): FileSettings[] {
  const data = JSON.parse(content) as unknown;
  if (!isRecord(data)) return [];
  const out = text(data.outputDirectory);
  const command = text(data.buildCommand);
  return [
    {
      appDir: '.',
      publish: out ? { value: out, key: 'outputDirectory' } : undefined,
      command: command ? { value: command, key: 'buildCommand' } : undefined,
    },
  ];
}

function readFirebase(content: string): FileSettings[] {
  const data = JSON.parse(content) as unknown;
  if (!isRecord(data)) return [];
  const sites = Array.isArray(data.hosting) ? data.hosting : [data.hosting];
  return sites.flatMap((site, i) => {
    const dir = isRecord(site) ? text(site.public) : null;
    const key = Array.isArray(data.hosting) ? `hosting[${i}].public` : 'hosting.public';
    return dir ? [{ appDir: '.', publish: { value: dir, key } }] : [];
  });
}

function readStaticJson(content: string): FileSettings[] {
  const data = JSON.parse(content) as unknown;
  const root = isRecord(data) ? text(data.root) : null;
  return root ? [{ appDir: '.', publish: { value: root, key: 'root' } }] : [];
}

function readYaml(file: string, content: string): unknown {
  return defaultLoadersSync['.yaml'](file, content);
}

function readRender(content: string): FileSettings[] {
  const data = readYaml(RENDER, content);
  if (!isRecord(data) || !Array.isArray(data.services)) return [];
  return data.services.flatMap((service, i): FileSettings[] => {
    if (!isRecord(service) || service.type !== 'web') return [];
    const root = text(service.rootDir);
    const appDir = root ? configDir(root) : '.';
    if (appDir === null) return [];
    const at = (key: string) => {
      const value = text(service[key]);
      return value ? { value, key: `services[${i}].${key}` } : undefined;
    };
    return [
      {
        appDir,
        publish: at('staticPublishPath'),
        command: at('buildCommand'),
        start: service.runtime === 'static' || service.env === 'static' ? undefined : at('startCommand'),
        ...(appDir !== '.' ? { baseKey: `services[${i}].rootDir` } : {}),
      },
    ];
  });
}

function readAmplify(content: string): FileSettings[] {
  const data = readYaml(AMPLIFY, content);
  if (!isRecord(data)) return [];
  const frontendOf = (owner: Raw, prefix: string, appDir: string, baseKey?: string): FileSettings[] => {
    const frontend = isRecord(owner.frontend) ? owner.frontend : null;
    const artifacts = frontend && isRecord(frontend.artifacts) ? frontend.artifacts : null;
    const dir = artifacts ? text(artifacts.baseDirectory) : null;
    return dir
      ? [
          {
            appDir,
            publish: { value: dir, key: `${prefix}frontend.artifacts.baseDirectory` },
            ...(baseKey ? { baseKey } : {}),
          },
        ]
      : [];
  };
  if (Array.isArray(data.applications)) {
    return data.applications.flatMap((app, i) => {
      if (!isRecord(app)) return [];
      const appDir = configDir(text(app.appRoot) ?? '.');
      if (appDir === null) return [];
      return frontendOf(
        app,
        `applications[${i}].`,
        appDir,
        appDir !== '.' ? `applications[${i}].appRoot` : undefined,
      );
    });
  }
  return frontendOf(data, '', '.');
}

function readProcfile(content: string): FileSettings[] {
  const web = /^web:\s*(.+)$/m.exec(content);
  return web?.[1]?.trim() ? [{ appDir: '.', start: { value: web[1].trim(), key: 'web' } }] : [];
}

/** In the order they are believed when two disagree: the most specific about a static site first. */
const READERS: readonly { file: string; read: Reader }[] = [
  { file: NETLIFY, read: readNetlify },
  { file: VERCEL, read: readVercel },
  { file: FIREBASE, read: readFirebase },
  { file: RENDER, read: readRender },
  { file: AMPLIFY, read: readAmplify },
  { file: STATIC_JSON, read: readStaticJson },
  { file: PROCFILE, read: readProcfile },
];

/** Every config file of a folder, parsed; unreadable ones reported, never fatal. */
async function readAll(
  files: ProjectFiles,
): Promise<{ found: { file: string; settings: FileSettings[] }[]; unreadable: DeployConfig['unreadable'] }> {
  const found: { file: string; settings: FileSettings[] }[] = [];
  const unreadable: DeployConfig['unreadable'] = [];
  for (const { file, read } of READERS) {
    const content = await files.read(file, MAX_CONFIG_BYTES + 1);
    if (!content) continue;
    if (content.truncated) {
      unreadable.push({ file, reason: `it is larger than ${MAX_CONFIG_BYTES} bytes` });
      continue;
    }
    try {
      found.push({ file, settings: read(content.text) });
    } catch (err) {
      unreadable.push({ file, reason: `it cannot be parsed: ${(err as Error).message.split('\n')[0]}` });
    }
  }
  return { found, unreadable };
}

const EMPTY: DeployConfig = { publish: null, otherPublish: [], command: null, start: null, unreadable: [] };

/**
 * What the deploy configs say about the app in `files` (a project, or one folder of it seen through
 * projectFolder): its own configs, then the project root's configs that name this folder as their
 * base. Folders outside the app's folder are dropped.
 */
export async function readDeployConfig(files: ProjectFiles): Promise<DeployConfig> {
  const sources: { file: string; settings: FileSettings[] }[] = [];
  const own = await readAll(files);
  const unreadable = [...own.unreadable];
  for (const { file, settings } of own.found) {
    sources.push({ file, settings: settings.filter((s) => s.appDir === '.') });
  }
  const parent = files.parent;
  if (parent) {
    const root = await readAll(parent.files);
    const up = parent.dir
      .split('/')
      .map(() => '..')
      .join('/');
    for (const { file, settings } of root.found) {
      const here = settings.filter((s) => s.appDir === parent.dir);
      if (here.length > 0) sources.push({ file: `${up}/${file}`, settings: here });
    }
  }
  if (sources.length === 0 && unreadable.length === 0) return EMPTY;

  const config: DeployConfig = { publish: null, otherPublish: [], command: null, start: null, unreadable };
  for (const { file, settings } of sources) {
    for (const s of settings) {
      if (s.publish) {
        const dir = configDir(s.publish.value);
        if (dir !== null) {
          const setting = { value: dir, file, key: s.publish.key };
          if (!config.publish) config.publish = setting;
          else if (config.publish.value !== dir) config.otherPublish.push(setting);
        }
      }
      if (s.command && !config.command) config.command = { value: s.command.value, file, key: s.command.key };
      if (s.start && !config.start) config.start = { value: s.start.value, file, key: s.start.key };
    }
  }
  return config;
}

/**
 * The folders the project root's configs move their app to (Netlify `base`, Render `rootDir`, Amplify
 * `appRoot`), in the order of the configs: what the app choice can weigh.
 */
export async function deployBases(files: ProjectFiles): Promise<DeployBase[]> {
  const { found } = await readAll(files);
  const bases: DeployBase[] = [];
  for (const { file, settings } of found) {
    for (const s of settings) {
      if (s.appDir !== '.' && s.baseKey && !bases.some((b) => b.dir === s.appDir)) {
        bases.push({ dir: s.appDir, file, key: s.baseKey });
      }
    }
  }
  return bases;
}

export type DeployCommand =
  { argv: Argv; setting: DeploySetting; how: string } | { argv: null; setting: DeploySetting; why: string };

/** What the deploy configs of the app's folder say, ready for the framework rules. */
export interface DeployEvidence {
  config: DeployConfig;
  build: DeployCommand | null;
  start: DeployCommand | null;
  /**
   * The folder the plan may take from the deploy config: its publish folder, unless the config pairs
   * it with a build command Forge cannot run (then the folder belongs to a build Forge does not make;
   * it is only noted, and looked in after the build).
   */
  publish: DeploySetting | null;
}
