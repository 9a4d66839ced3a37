import { defaultLoadersSync } from 'cosmiconfig';
import { TESTS_POLICIES } from '@forge/shared';
import { z } from 'zod';
import { DURATION_EXAMPLES, parseDuration } from '@forge/shared';
import { BlueprintError, type BlueprintIssue } from './blueprint-error.ts';
import { splitCommand, type Argv } from './command-line.ts';
import type { DecisionLog } from './decisions.ts';
import { PACKAGE_JSON, type PackageInfo } from './package-json.ts';
import type { ProjectFiles } from './project-files.ts';

/**
 * The uploaded project's own `forge` config, in cosmiconfig's search order for the project folder only,
 * limited to the forms that are data. Cosmiconfig's `search()` is not used on uploads: it also loads
 * JS/TS configs (running the project's code in the daemon), follows `$import` to any path, reads its
 * meta config from the daemon's cwd, and reads files whole. We keep its search places and its JSON and
 * YAML loaders, and read through ProjectFiles (inside the project, size-capped).
 */
export const FORGE_CONFIG_FILES = [
  '.forgerc',
  '.forgerc.json',
  '.forgerc.yaml',
  '.forgerc.yml',
  '.config/forgerc',
  '.config/forgerc.json',
  '.config/forgerc.yaml',
  '.config/forgerc.yml',
  'forge.config.json',
  'forge.config.yaml',
  'forge.config.yml',
] as const;

/** Config forms that would have to be executed; they are reported and never loaded. */
export const EXECUTABLE_CONFIG_FILES = ['.forgerc', '.config/forgerc', 'forge.config'].flatMap((base) =>
  ['js', 'ts', 'mjs', 'cjs', 'mts', 'cts'].map((ext) => `${base}.${ext}`),
);

const MIN_TIMEOUT_MS = 1_000;
/** A day: longer is surely a typo, and setTimeout cannot go past ~24.8 days anyway. */
const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1_000;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const commandSetting = z.unknown().transform((value, ctx): Argv | null => {
  if (value === false || value === null) return null;
  if (typeof value === 'string') {
    try {
      return splitCommand(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `the command ${(err as Error).message}` });
      return z.NEVER;
    }
  }
  if (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((arg) => typeof arg === 'string') &&
    value[0] !== ''
  ) {
    return value as string[];
  }
  ctx.addIssue({
    code: 'custom',
    message:
      'expected a command: a string like "npm run build", an array like ["npm", "run", "build"], or false to skip the step',
  });
  return z.NEVER;
});

/** A project-relative folder in canonical form ("dist", "apps/web", "."); `example` for the message. */
const folderSetting = (example: string) =>
  z.unknown().transform((value, ctx): string => {
    if (typeof value !== 'string' || value.trim() === '') {
      ctx.addIssue({ code: 'custom', message: `expected a folder inside the project, e.g. "${example}"` });
      return z.NEVER;
    }
    const posix = value.trim();
    const parts = posix.split('/');
    if (posix.includes('\\') || posix.startsWith('/') || /^[A-Za-z]:/.test(posix) || parts.includes('..')) {
      ctx.addIssue({
        code: 'custom',
        message: `"${value}" must be a relative folder inside the project with forward slashes and no ".."`,
      });
      return z.NEVER;
    }
    const clean = parts.filter((part) => part !== '' && part !== '.').join('/');
    return clean === '' ? '.' : clean;
  });

const envSetting = z.unknown().transform((value, ctx): Record<string, string> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({
      code: 'custom',
      message: 'expected a map of variable names to values, e.g. { "NODE_ENV": "production" }',
    });
    return z.NEVER;
  }
  const env: Record<string, string> = {};
  for (const [name, raw] of Object.entries(value)) {
    if (!ENV_NAME.test(name)) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'variable names use letters, digits and _ and do not start with a digit',
      });
    } else if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') {
      env[name] = String(raw);
    } else {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'expected a string (numbers and booleans become text)',
      });
    }
  }
  return env;
});

const timeoutSetting = z.unknown().transform((value, ctx): number => {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? parseDuration(value) : null;
  if (ms === null || !Number.isFinite(ms)) {
    ctx.addIssue({
      code: 'custom',
      message: `expected milliseconds (a number) or ${DURATION_EXAMPLES} in quotes`,
    });
    return z.NEVER;
  }
  if (!Number.isInteger(ms) || ms < MIN_TIMEOUT_MS || ms > MAX_TIMEOUT_MS) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be a whole number of milliseconds from 1 second to 24 hours',
    });
    return z.NEVER;
  }
  return ms;
});

/** What a project's forge config may set. Strict, so a misspelt setting is reported, not ignored. */
export const ForgeProjectConfig = z.strictObject({
  /** Install command; false skips the install. */
  install: commandSetting.optional(),
  /** Build command; false skips the build. */
  build: commandSetting.optional(),
  /** Start command: makes the project a server app. false: no server. */
  start: commandSetting.optional(),
  /** Test command; false skips the tests. */
  test: commandSetting.optional(),
  /**
   * What the tests mean for the verdict of `forge ci` and `--wait`: "required" (failing tests exit 7),
   * "optional" (reported, exit 0) or "skip" (not run). The command's `--tests` wins over it.
   */
  tests: z
    .enum(TESTS_POLICIES, { error: `expected one of ${TESTS_POLICIES.map((p) => `"${p}"`).join(', ')}` })
    .optional(),
  /** Project-relative folder the preview serves. */
  outputDir: folderSetting('dist').optional(),
  /** Extra environment for every command. */
  env: envSetting.optional(),
  /** Per-stage timeout: ms, or a duration string ("5m"). */
  timeout: timeoutSetting.optional(),
  /**
   * In a repository of several apps (workspaces, or apps in subfolders): the project-relative folder
   * of the one to build, e.g. "apps/web", instead of the one Forge picks. Read from the forge config at
   * the project root; the `--app` option (DetectOptions.app) wins over it. Every other setting then
   * applies to that app: its commands run in its folder, and `outputDir` stays project-relative
   * ("apps/web/dist").
   */
  app: folderSetting('apps/web').optional(),
});
export type ForgeProjectConfig = z.infer<typeof ForgeProjectConfig>;

const KNOWN_SETTINGS = Object.keys(ForgeProjectConfig.shape).join(', ');

export interface LoadedForgeConfig {
  /** Project-relative file it came from ("package.json" for the "forge" key). */
  file: string;
  config: ForgeProjectConfig;
}

function toIssues(error: z.ZodError): BlueprintIssue[] {
  return error.issues.flatMap((issue): BlueprintIssue[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: [...issue.path.map(String), key].join('.'),
        message: `unknown setting (a project's forge config may set: ${KNOWN_SETTINGS})`,
      }));
    }
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    const message =
      issue.code === 'invalid_type' && field === '(root)' ? 'expected an object of settings' : issue.message;
    return [{ field, message }];
  });
}

function validate(file: string, where: string, data: unknown): ForgeProjectConfig {
  const parsed = ForgeProjectConfig.safeParse(data);
  if (parsed.success) return parsed.data;
  const issues = toIssues(parsed.error);
  throw new BlueprintError(
    'BLUEPRINT_INVALID_CONFIG',
    `Invalid forge config in ${where}:\n${issues.map((i) => `  - ${i.field}: ${i.message}`).join('\n')}`,
    file,
    issues,
  );
}

function parseData(file: string, text: string): unknown {
  const loader = file.endsWith('.json') ? defaultLoadersSync['.json'] : defaultLoadersSync['.yaml'];
  try {
    // The loaders only use the path in their messages: give them the project-relative one.
    return loader(file, text);
  } catch (err) {
    throw new BlueprintError(
      'BLUEPRINT_INVALID_CONFIG',
      `Cannot parse the forge config ${file}: ${(err as Error).message}`,
      file,
    );
  }
}

/** Find, read and validate the project's forge config; null when it has none (or only executable ones). */
export async function loadForgeConfig(
  files: ProjectFiles,
  pkg: PackageInfo | null,
  log: DecisionLog,
): Promise<LoadedForgeConfig | null> {
  for (const file of EXECUTABLE_CONFIG_FILES) {
    if (await files.isFile(file)) {
      log.add(
        'forgeConfig',
        'ignored',
        file,
        'ignored: executable config is not loaded (it would run the project\'s code inside Forge); use .forgerc.json, .forgerc.yaml or a "forge" key in package.json',
      );
    }
  }

  let found: LoadedForgeConfig | null = null;
  if (pkg && pkg.forge !== undefined) {
    found = { file: PACKAGE_JSON, config: validate(PACKAGE_JSON, 'package.json ("forge" key)', pkg.forge) };
  }
  for (const file of FORGE_CONFIG_FILES) {
    const content = await files.read(file);
    if (!content) continue;
    if (found) {
      log.add(
        'forgeConfig',
        'ignored',
        file,
        `ignored: the forge config was already read from ${found.file}`,
      );
      continue;
    }
    if (content.truncated) {
      throw new BlueprintError(
        'BLUEPRINT_INVALID_CONFIG',
        `The forge config ${file} is ${content.size} bytes, more than Forge reads; a forge config is a few lines.`,
        file,
      );
    }
    // Like cosmiconfig, an empty file (or one with only comments) does not count as a config.
    if (content.text.trim() === '') continue;
    const data = parseData(file, content.text);
    if (data === undefined || data === null) continue;
    found = { file, config: validate(file, file, data) };
  }
  if (found) {
    log.add(
      'forgeConfig',
      found.file,
      found.file,
      "the project's forge config: its settings win over detection",
    );
  }
  return found;
}
