import path from 'node:path';
import type { ConfigValue } from './config-text.ts';
import { describeSetting } from './deploy-evidence.ts';
import { projectDir as projectDirIn, type FrameworkContext } from './framework-context.ts';

/** Where an output-dir setting was looked for. */
export interface DirSetting {
  /** The file the setting was read from (a config file, package.json for a script flag), or null. */
  file: string | null;
  /** How the setting is named in that file, for the rule text, e.g. "build.outDir". */
  key: string;
  value: ConfigValue | undefined;
  /** Folder the setting is relative to (Vite's `root`), if not the project root. */
  base?: string;
  /** The framework's default output folder. */
  fallback: string;
  /** Why the default applies, e.g. "Vite's default". */
  fallbackRule: string;
}

/**
 * A folder the app's build writes, relative to the app's folder: inside the app (`dist`), or — for an
 * app in a folder of the project — elsewhere in the project (`../server/public`, as a client build
 * that writes into its server's folder does). Null when it leaves the project.
 */
export function appOutputDir(ctx: FrameworkContext, ...segments: string[]): string | null {
  const dir = projectDirIn(...segments);
  if (dir !== null) return dir;
  const folder = ctx.files.parent?.dir ?? ctx.dir;
  const inProject = folder && folder !== '.' ? projectDirIn(folder, ...segments) : null;
  return folder && inProject !== null ? path.posix.relative(folder, inProject) || '.' : null;
}

/**
 * The output dir from a setting read out of a config file, recording the decision: a plain string or a
 * `path.resolve(__dirname, …)` of plain strings is used (if it stays inside the project); a computed
 * value is reported as unreadable, never guessed at.
 */
export function resolveOutputDir(ctx: FrameworkContext, setting: DirSetting): string {
  const { file, key, value, base = '.', fallback, fallbackRule } = setting;
  // A folder of the project (an app in apps/web) may write beside itself ("../../dist/apps/web"): that
  // is fine while it stays inside the project. The result stays relative to the folder.
  const projectDir = (...segments: string[]): string | null => appOutputDir(ctx, ...segments);
  const fallbackDir = projectDir(base, fallback) ?? fallback;
  const hint = 'set outputDir in the forge config if that is wrong';
  // A deploy config that names the folder knows better than a default or a value Forge cannot read.
  const publish = ctx.deploy?.publish;
  if (publish && publish.value !== '.' && (value === undefined || value.kind === 'computed')) {
    const unread =
      value === undefined
        ? file
          ? `no ${key} in ${file}`
          : 'no setting of the framework names it'
        : `${key} in ${file ?? 'the config'} is computed`;
    ctx.log.add(
      'outputDir',
      publish.value,
      publish.file,
      `${describeSetting(publish)}: the folder the site is deployed from (${unread}; the framework's default would be ${fallbackDir})`,
    );
    return publish.value;
  }
  if (value === undefined) {
    const where = file ? `no ${key} in ${file}: ` : '';
    ctx.log.add('outputDir', fallbackDir, file, `${where}${fallbackRule}`);
    return fallbackDir;
  }
  if (value.kind === 'path') {
    // __dirname is the config file's folder; the working directory is the app's folder, where Forge
    // runs the build. Either way the result is absolute, so a `base` (Vite's root) does not apply.
    const configDir = file ? path.posix.dirname(file) : '.';
    const dir =
      value.from === 'absolute'
        ? null
        : value.from === 'config-dir'
          ? appOutputDir(ctx, configDir, ...value.segments)
          : value.from === 'cwd'
            ? appOutputDir(ctx, '.', ...value.segments)
            : appOutputDir(ctx, base, ...value.segments);
    if (dir === null) {
      ctx.log.add(
        'outputDir',
        fallbackDir,
        file,
        `${key} ${value.text} in ${file ?? 'the config'} is outside the project and will not be served; using ${fallbackRule}`,
      );
      return fallbackDir;
    }
    ctx.log.add('outputDir', dir, file, `${key}: ${value.text} in ${file ?? 'the config'}`);
    return dir;
  }
  if (value.kind !== 'string') {
    ctx.log.add(
      'outputDir',
      fallbackDir,
      file,
      `${key} in ${file ?? 'the config'} is computed, and Forge does not run project code to evaluate it; ` +
        `using ${fallbackRule} (${hint})`,
    );
    return fallbackDir;
  }
  const dir = appOutputDir(ctx, base, value.value);
  if (dir === null) {
    ctx.log.add(
      'outputDir',
      fallbackDir,
      file,
      `${key} "${value.value}" in ${file ?? 'the config'} is outside the project and will not be served; using ${fallbackRule}`,
    );
    return fallbackDir;
  }
  ctx.log.add('outputDir', dir, file, `${key}: "${value.value}" in ${file ?? 'the config'}`);
  return dir;
}
