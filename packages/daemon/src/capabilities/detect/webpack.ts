/**
 * webpack projects: a `webpack.config.*` (or a build script that runs webpack) builds a static site.
 * The build is the "build" script, else `webpack --mode production` with the production config; the
 * output folder is the config's `output.path` (`path.resolve(__dirname, 'dist')` and kin), read as
 * text, following the config it merges in (`require('./webpack.common.js')`); webpack's default is dist/.
 */
import path from 'node:path';
import { formatCommand } from '@forge/shared';
import { execBin } from './command-line.ts';
import { childObject, findProp, scanObjects, type ConfigObject } from './config-text.ts';
import {
  decide,
  firstDep,
  productionStart,
  projectDir,
  scriptFlag,
  withBuild,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';
import { resolveOutputDir } from './output-dir.ts';
import { PACKAGE_JSON } from './package-json.ts';
import { commandsOfScript } from './script-commands.ts';

const CONFIG_EXTS = ['js', 'cjs', 'mjs', 'ts', 'cts', 'mts'];
const withExts = (bases: readonly string[]): string[] =>
  bases.flatMap((base) => CONFIG_EXTS.map((ext) => `${base}.${ext}`));

/** What webpack-cli loads when no --config is given. */
const DEFAULT_CONFIGS = withExts(['webpack.config', '.webpack/webpack.config', '.webpack/webpackfile']);

/** Without a build script: a production config first, then the default, then a shared base. */
const CONFIG_PREFERENCE = withExts([
  'webpack.config.prod',
  'webpack.prod.config',
  'webpack.prod',
  'webpack.config.production',
  'webpack.production.config',
  'webpack.production',
  'webpack.config',
  'webpack.common',
  'webpack.config.common',
]);

/** Targets that build for Node (a server bundle), not for a browser. */
const NODE_TARGET = /^(?:node|async-node|electron-main)/;

/** At most this many merged-in configs are read to find output.path. */
const MAX_MERGED_CONFIGS = 3;

interface ReadConfig {
  file: string;
  text: string;
  objects: ConfigObject[];
}

async function readConfig(ctx: FrameworkContext, file: string): Promise<ReadConfig | null> {
  const content = await ctx.files.read(file);
  return content ? { file, text: content.text, objects: scanObjects(content.text) } : null;
}

/** Local files a config requires or imports (`./webpack.common.js`), resolved like Node would. */
async function mergedConfigs(ctx: FrameworkContext, config: ReadConfig): Promise<string[]> {
  const specs = [
    ...config.text.matchAll(/require\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g),
    ...config.text.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g),
    ...config.text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  const found: string[] = [];
  for (const spec of specs) {
    // Only configs: a required helper (paths.js, env.js) has no output of its own.
    if (!/webpack/i.test(path.posix.basename(spec))) continue;
    const base = projectDir(path.posix.dirname(config.file), spec);
    if (base === null) continue;
    const file = await ctx.files.firstFile([base, ...CONFIG_EXTS.map((ext) => `${base}.${ext}`)]);
    if (file && file !== config.file && !found.includes(file)) found.push(file);
    if (found.length >= MAX_MERGED_CONFIGS) break;
  }
  return found;
}

/** The `output` object that sets `path`, in the config or in the configs it merges in. */
async function findOutputPath(
  ctx: FrameworkContext,
  config: ReadConfig,
): Promise<{ file: string; owner: ConfigObject } | null> {
  const where = (o: ConfigObject): boolean => childObject(o, 'output')?.props.has('path') ?? false;
  const own = findProp(config.objects, 'output', where);
  if (own) return { file: config.file, owner: childObject(own.owner, 'output')! };
  for (const file of await mergedConfigs(ctx, config)) {
    const merged = await readConfig(ctx, file);
    const hit = merged ? findProp(merged.objects, 'output', where) : null;
    if (hit) return { file, owner: childObject(hit.owner, 'output')! };
  }
  return null;
}

/** `--config x` / `-c x` / `--config=x` of a webpack command. */
function configArg(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if ((arg === '--config' || arg === '-c') && args[i + 1]) return args[i + 1]!;
    if (arg.startsWith('--config=')) return arg.slice('--config='.length);
  }
  return null;
}

export async function detectWebpack(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const { scripts } = ctx.pkg;
  // The webpack run of the build script (following `npm run build:prod` and the like).
  const buildRun = commandsOfScript('build', scripts).find(
    (c) =>
      (c.bin === 'webpack' || c.bin === 'webpack-cli') && !['serve', 'server', 's'].includes(c.args[0] ?? ''),
  );
  const named = buildRun ? configArg(buildRun.args) : null;
  const namedFile = named === null ? null : projectDir(named);

  let configFile: string | null;
  if (buildRun) configFile = namedFile ?? (await ctx.files.firstFile(DEFAULT_CONFIGS));
  else if (scripts.build === undefined) configFile = await ctx.files.firstFile(CONFIG_PREFERENCE);
  else configFile = null;
  // A build script that does something else (gulp, tsc) is not a webpack build, config or not.
  if (!buildRun && !(scripts.build === undefined && configFile)) return null;

  const config = configFile ? await readConfig(ctx, configFile) : null;
  const target = config ? findProp(config.objects, 'target') : null;
  const targetValue = target?.value.kind === 'string' ? target.value.value : null;
  // A server bundle or an app with its own production server: the server rules decide.
  if (targetValue !== null && NODE_TARGET.test(targetValue)) return null;
  if (productionStart(ctx)) return null;

  const evidence = [
    firstDep(ctx, ['webpack', 'webpack-cli', 'webpack-dev-server'])?.rule,
    buildRun ? `the "build" script runs ${buildRun.text}` : `${configFile} present`,
  ].filter(Boolean);
  decide(ctx, 'webpack', 'static-build', buildRun ? PACKAGE_JSON : configFile, evidence.join('; '));

  const flag = buildRun ? scriptFlag(buildRun.args.join(' '), ['--output-path', '-o']) : null;
  const flagDir = flag === null ? null : projectDir(flag);
  let outputDir: string;
  if (flagDir !== null) {
    outputDir = flagDir;
    ctx.log.add('outputDir', flagDir, PACKAGE_JSON, `webpack --output-path ${flag} in the "build" script`);
  } else {
    const output = config ? await findOutputPath(ctx, config) : null;
    outputDir = resolveOutputDir(ctx, {
      file: output?.file ?? config?.file ?? null,
      key: 'output.path',
      value: output?.owner.props.get('path'),
      fallback: 'dist',
      fallbackRule:
        named !== null && !config
          ? `${named}, named by the "build" script, cannot be read: webpack's default dist/`
          : "webpack's default dist/",
    });
  }

  if (scripts.build !== undefined || !configFile) {
    return withBuild(ctx, { framework: 'webpack', kind: 'static-build', outputDir, start: null }, null);
  }
  const argv = execBin(ctx.pm, 'webpack', ['--mode', 'production', '--config', configFile]);
  ctx.log.add(
    'build',
    formatCommand(argv),
    configFile,
    `no "build" script: webpack in production mode with ${configFile}`,
  );
  return { framework: 'webpack', kind: 'static-build', outputDir, build: argv, start: null };
}
