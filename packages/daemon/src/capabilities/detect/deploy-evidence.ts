/**
 * A deploy config's commands as Forge can run them: argv, never a shell. `npm install && npm run
 * build` is the platform's install followed by the build script; `npx vitepress build docs` is a
 * binary of the project's own dependencies. Anything else that needs a shell (two commands, `$VAR`,
 * a redirect) or runs a program the project does not install is reported, not guessed at.
 */
import type { PackageManager } from '@forge/shared';
import { execBin, runScript, splitCommand, type Argv } from './command-line.ts';
import {
  readDeployConfig,
  type DeployCommand,
  type DeployEvidence,
  type DeploySetting,
} from './deploy-configs.ts';
import type { FrameworkContext } from './framework-context.ts';
import type { PackageInfo } from './package-json.ts';

export type { DeployCommand, DeployEvidence } from './deploy-configs.ts';
import { scriptSegments } from './script-commands.ts';

/** A deploy config's command, runnable or with the reason it is not. */
const PACKAGE_MANAGERS = new Set(['npm', 'yarn', 'pnpm', 'bun']);
const INSTALLS = new Set(['install', 'i', 'ci', 'add']);
const RUNNERS = new Set(['npx', 'pnpx', 'bunx']);

/** Binaries whose package has another name. */
const BIN_PACKAGES: Record<string, string> = {
  eleventy: '@11ty/eleventy',
  docusaurus: '@docusaurus/core',
  ng: '@angular/cli',
  tsc: 'typescript',
  slidev: '@slidev/cli',
  rspress: '@rspress/core',
  'build-storybook': '@storybook/cli',
  'vue-cli-service': '@vue/cli-service',
  nuxi: 'nuxt',
};

/** An install step a platform runs before the build (`npm ci`, `yarn`, `pnpm install --frozen-lockfile`). */
function isInstall(words: string[]): boolean {
  const [tool, sub] = words;
  if (!tool || !PACKAGE_MANAGERS.has(tool)) return false;
  return sub === undefined ? tool === 'yarn' || tool === 'pnpm' : INSTALLS.has(sub) || sub.startsWith('-');
}

/** Whether the project installs the binary `bin` (a dependency of that name, or the package behind it). */
function installs(pkg: PackageInfo, bin: string): boolean {
  if (pkg.depField(bin)) return true;
  const owner = BIN_PACKAGES[bin];
  if (owner && pkg.depField(owner)) return true;
  return pkg.depNames().some((name) => name.endsWith(`/${bin}`));
}

/** A deploy config's shell text as argv for this project, or why it cannot be run. */
export function deployCommandArgv(
  text: string,
  pm: PackageManager,
  pkg: PackageInfo,
): { argv: Argv; how: string } | { argv: null; why: string } {
  const segments = scriptSegments(text);
  const parsed: string[][] = [];
  for (const segment of segments) {
    try {
      parsed.push(splitCommand(segment));
    } catch (err) {
      return { argv: null, why: `"${segment}" ${(err as Error).message.split('.')[0]}` };
    }
  }
  const work = parsed.filter((words) => !isInstall(words));
  if (work.length === 0) return { argv: null, why: 'it only installs' };
  if (work.length > 1) {
    return { argv: null, why: 'it runs several commands, which needs a shell' };
  }
  let words = work[0]!;
  const [tool, sub, name] = words;
  if (tool && PACKAGE_MANAGERS.has(tool)) {
    const script =
      sub === 'run' || sub === 'run-script'
        ? name
        : tool !== 'npm' && sub && !sub.startsWith('-')
          ? sub
          : null;
    const extra = words.slice(sub === 'run' || sub === 'run-script' ? 3 : 2).filter((w) => w !== '--');
    if (script && pkg.scripts[script] !== undefined) {
      const argv = runScript(pm, script);
      if (extra.length > 0) argv.push(...(pm === 'npm' ? ['--', ...extra] : extra));
      return { argv, how: `the "${script}" script` };
    }
    if (script && tool !== 'npm' && sub !== 'run' && sub !== 'exec' && sub !== 'dlx') {
      // `yarn vitepress build docs`: a binary run through the package manager.
      words = words.slice(1);
    } else if (script) {
      return { argv: null, why: `it runs the "${script}" script, which package.json does not have` };
    } else if (sub === 'exec' || sub === 'dlx' || (tool === 'bun' && sub === 'x')) {
      words = words.slice(2).filter((w, i) => !(i === 0 && w === '--'));
    } else {
      return { argv: null, why: `${tool} ${sub ?? ''} is not a build Forge can run`.replace(/\s+$/, '') };
    }
  }
  if (words[0] && RUNNERS.has(words[0])) {
    words = words.slice(1);
    while (words[0]?.startsWith('-')) words = words.slice(1);
  }
  const bin = words[0]?.replace(/^(?:\.\/)?node_modules\/\.bin\//, '');
  if (!bin) return { argv: null, why: 'it names no command' };
  // Node itself is always there: Forge runs every project with it.
  if (bin === 'node') return { argv: words, how: "Node, with the project's own file" };
  if (!installs(pkg, bin)) {
    return { argv: null, why: `it runs ${bin}, which is not one of the project's dependencies` };
  }
  return { argv: execBin(pm, bin, words.slice(1)), how: `${bin}, from the project's dependencies` };
}

const commandOf = (
  setting: DeploySetting | null,
  pm: PackageManager,
  pkg: PackageInfo,
): DeployCommand | null => {
  if (!setting) return null;
  const argv = deployCommandArgv(setting.value, pm, pkg);
  return argv.argv ? { argv: argv.argv, setting, how: argv.how } : { argv: null, setting, why: argv.why };
};

/** The deploy evidence of the app the context plans (read once per context). */
export async function deployEvidence(ctx: FrameworkContext): Promise<DeployEvidence> {
  if (ctx.deploy) return ctx.deploy;
  const config = await readDeployConfig(ctx.files);
  const build = commandOf(config.command, ctx.pm, ctx.pkg);
  const evidence: DeployEvidence = {
    config,
    build,
    start: commandOf(config.start, ctx.pm, ctx.pkg),
    publish: !build || build.argv ? config.publish : null,
  };
  ctx.deploy = evidence;
  for (const bad of config.unreadable) ctx.log.add('ignored', bad.file, bad.file, `not read: ${bad.reason}`);
  return evidence;
}

/** `publish = "dist" in netlify.toml`, for rules. */
export const describeSetting = (s: DeploySetting): string =>
  `${s.key} = "${s.value}" in ${s.file.startsWith('../') ? `the project root's ${s.file.replace(/^(?:\.\.\/)+/, '')}` : s.file}`;
