/**
 * Whether the root of a repository of several apps is itself the app. A workspace root's scripts
 * usually just run every package's (`turbo run build`, `pnpm -r build`, `nx run-many`); but a root can
 * also be an app with small packages beside it (a Nuxt or Vite app at the root and a library in
 * `packages/`). The rule reads the root's own "build" script and dependencies, never a list of
 * framework ids, so it holds for frameworks Forge learns later.
 */
import type { ProjectKind } from '@forge/shared';
import type { PackageInfo } from './package-json.ts';
import { commandsOfScript, OTHER_PACKAGE_FLAGS, type ScriptCommand } from './script-commands.ts';

/** Tools that run other packages' tasks: a command of theirs builds the packages, not the root. */
const TASK_RUNNERS = new Set([
  'turbo',
  'nx',
  'lerna',
  'rush',
  'rushx',
  'lage',
  'ultra',
  'wsrun',
  'moon',
  'bolt',
  'manypkg',
]);

/**
 * Tools a root script runs that check, clean or type-check rather than build an app: `tsc -b &&
 * turbo run build` builds the packages, whatever typescript the root lists.
 */
const NOT_A_BUILD = new Set([
  'tsc',
  'vue-tsc',
  'eslint',
  'prettier',
  'biome',
  'stylelint',
  'jest',
  'vitest',
  'husky',
  'lint-staged',
  'changeset',
  'rimraf',
  'del-cli',
  'shx',
  'syncpack',
  'sherif',
  'knip',
  'patch-package',
]);

const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/**
 * Whether a command runs scripts of other packages or folders: a task runner, a package manager told
 * to run across workspaces (`--workspaces`, `-r`, `--filter`, `--cwd`, `yarn workspaces foreach`,
 * `yarn workspace <name>`).
 */
export function runsOtherPackages(cmd: ScriptCommand): boolean {
  if (TASK_RUNNERS.has(cmd.bin)) return true;
  if (!PACKAGE_MANAGERS.has(cmd.bin)) return false;
  if (cmd.bin === 'yarn' && (cmd.args[0] === 'workspaces' || cmd.args[0] === 'workspace')) return true;
  return cmd.args.some((a) => OTHER_PACKAGE_FLAGS.has(a) || OTHER_PACKAGE_FLAGS.has(a.replace(/=.*$/, '')));
}

/** Irregular bins of common tools, where the package is not named after the bin. */
const BIN_PACKAGES: Record<string, string> = { ng: '@angular/cli', 'react-router': '@react-router/dev' };

/**
 * Whether the dependency `dep` provides the binary `bin`, by the way packages name their bins: the
 * package itself (`vite`, `nuxt`), its unscoped name (`@11ty/eleventy`), its scope (`@docusaurus/core`,
 * `@react-router/dev`), scope and name joined (`@vue/cli-service` → `vue-cli-service`).
 */
export function providesBin(dep: string, bin: string): boolean {
  if (dep === bin || BIN_PACKAGES[bin] === dep) return true;
  const scoped = /^@([^/]+)\/(.+)$/.exec(dep);
  if (!scoped) return false;
  const [, scope, name] = scoped;
  return name === bin || scope === bin || `${scope}-${name}` === bin || scope!.startsWith(`${bin}-`);
}

/** The root's verdict: whether it is the app, and the rule that says so. */
export interface RootVerdict {
  isApp: boolean;
  rule: string;
}

/**
 * Is the root of a workspace (or Nx workspace) the app? A server a framework names (express,
 * fastify, …) that the root's own start script runs is. With a "build" script: when one of its
 * commands builds something in the root itself — not a run across packages, not a check or clean, and
 * a tool one of the root's own dependencies provides (`nuxt build` with nuxt in devDependencies) or a
 * framework Forge recognises at the root. A script that only runs the packages' builds (`turbo run
 * build`, `pnpm -r build`, `nx run-many`, `lerna run build`, `npm run build --workspaces`) makes the
 * root a workspace root, not an app. Without a "build" script: when a framework Forge recognises
 * builds or serves the root from files of its own — an index.html or the framework's config there,
 * not only a dependency (a workspace root lists vite for its packages' tests).
 */
export function rootVerdict(
  pkg: PackageInfo,
  plan: {
    framework: string;
    kind: ProjectKind;
    /** The file the framework decision names as evidence (package.json for a dependency). */
    evidence: string | null;
    hasIndexHtml: boolean;
  },
): RootVerdict {
  if (plan.kind === 'unknown') return { isApp: false, rule: 'nothing to build or serve at the root' };
  const known = plan.framework !== 'custom' && plan.framework !== 'node';
  const script = pkg.scripts.build;
  if (script === undefined) {
    if (!known)
      return { isApp: false, rule: 'the root has no "build" script and no framework Forge recognises' };
    if (plan.kind === 'server') {
      return { isApp: true, rule: `its own "start" script runs the ${plan.framework} server` };
    }
    const own = plan.hasIndexHtml ? 'index.html' : plan.evidence !== 'package.json' ? plan.evidence : null;
    return own
      ? { isApp: true, rule: `${plan.framework} builds the root (its ${own}), which has no "build" script` }
      : {
          isApp: false,
          rule: `the root only depends on ${plan.framework}: no "build" script, no index.html or config of its own`,
        };
  }
  const commands = commandsOfScript('build', pkg.scripts);
  let elsewhere = false;
  const delegated: ScriptCommand[] = [];
  for (const cmd of commands) {
    // After `cd packages/x` every command builds that folder, not the root.
    if (cmd.bin === 'cd' || cmd.bin === 'pushd') elsewhere = true;
    if (elsewhere || runsOtherPackages(cmd)) {
      delegated.push(cmd);
      continue;
    }
    if (NOT_A_BUILD.has(cmd.bin)) continue;
    // A package known to carry the bin (or named as it) before one that only shares its scope.
    const names = pkg.depNames();
    const dep =
      names.find((name) => name === cmd.bin || BIN_PACKAGES[cmd.bin] === name) ??
      names.find((name) => providesBin(name, cmd.bin));
    if (dep) {
      return {
        isApp: true,
        rule: `the root's "build" script runs ${cmd.text}, and ${dep} is in its ${pkg.depField(dep)}`,
      };
    }
    if (known) {
      return {
        isApp: true,
        rule: `the root's "build" script runs ${cmd.text}, and ${plan.framework} builds the root`,
      };
    }
  }
  if (delegated.length > 0) {
    return {
      isApp: false,
      rule: `the root's "build" script only runs the packages' builds (${delegated[0]!.text})`,
    };
  }
  if (known && plan.kind === 'server') {
    // `tsc` then `node dist/server.js`: the build only compiles the server the root starts.
    return { isApp: true, rule: `its own "start" script runs the ${plan.framework} server` };
  }
  return {
    isApp: false,
    rule: `the root's "build" script (${script}) runs no tool the root's own dependencies provide`,
  };
}
