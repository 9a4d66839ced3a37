import { formatCommand, type Blueprint, type Diagnosis } from '@forge/shared';
import { unifiedDiff } from './diff.ts';
import { addMember } from './json-edit.ts';
import { appManifest, objectField } from './project.ts';
import type { PlanResult, RepairTarget } from './types.ts';

/**
 * Each framework's own build command, as capabilities/detect names them (withBuild's fallbacks).
 * Parcel and webpack are missing on purpose: their build needs an entry or a config that only the
 * project's script can name.
 */
export const FRAMEWORK_BUILDS: Readonly<Record<string, string>> = {
  vite: 'vite build',
  sveltekit: 'vite build',
  'sveltekit-static': 'vite build',
  'vue-cli': 'vue-cli-service build',
  eleventy: 'eleventy',
  angular: 'ng build',
  gatsby: 'gatsby build',
  docusaurus: 'docusaurus build',
  cra: 'react-scripts build',
  next: 'next build',
  'next-export': 'next build',
  astro: 'astro build',
};

/**
 * The binary and arguments of a plan's build when it runs a local binary through the package manager
 * (`npm exec --no -- vite build`, `pnpm exec …`, `yarn run …`, `bun run …`): what the detection chose
 * for a project without a build script, so the script says exactly that.
 */
export function binCommand(argv: readonly string[] | null): string | null {
  if (!argv) return null;
  const [pm, verb, ...rest] = argv;
  let bin: readonly string[] | null = null;
  if (pm === 'npm' && verb === 'exec') {
    const dashes = rest.indexOf('--');
    bin = dashes === -1 ? null : rest.slice(dashes + 1);
  } else if ((pm === 'pnpm' && verb === 'exec') || ((pm === 'yarn' || pm === 'bun') && verb === 'run')) {
    bin = rest;
  }
  // `yarn run build` / `bun run build` run the script itself, which is what is missing.
  if (!bin || bin.length === 0 || bin[0] === 'build') return null;
  return formatCommand(bin);
}

/** The framework's build command for a plan, or null when Forge knows none. */
export function frameworkBuild(blueprint: Blueprint): string | null {
  return binCommand(blueprint.build) ?? FRAMEWORK_BUILDS[blueprint.framework] ?? null;
}

/** USE_FRAMEWORK_BUILD: package.json has no build script: add the framework's own build command as one. */
export async function planFrameworkBuild(_diagnosis: Diagnosis, target: RepairTarget): Promise<PlanResult> {
  const manifest = await appManifest(target.projectDir, target.blueprint);
  if (!manifest) return { plan: null, reason: 'the app has no package.json that RepairBot can read' };
  const scripts = objectField(manifest, 'scripts');
  if (scripts?.build !== undefined)
    return { plan: null, reason: `${manifest.file} has a "build" script already` };
  if (manifest.data.scripts !== undefined && scripts === null) {
    return { plan: null, reason: `"scripts" in ${manifest.file} is not an object` };
  }
  const command = frameworkBuild(target.blueprint);
  if (!command) {
    return {
      plan: null,
      reason: `Forge knows no build command of its own for the framework "${target.blueprint.framework}"`,
    };
  }
  let text: string;
  try {
    text = scripts
      ? addMember(manifest.text, ['scripts'], 'build', command)
      : addMember(
          manifest.text,
          [],
          'scripts',
          { build: command },
          {
            before: ['dependencies', 'devDependencies'].find((k) => k in manifest.data),
          },
        );
  } catch (error) {
    return { plan: null, reason: `RepairBot could not edit ${manifest.file}: ${(error as Error).message}` };
  }
  return {
    plan: {
      code: 'USE_FRAMEWORK_BUILD',
      summary: `RepairBot added the script "build": "${command}" to ${manifest.file}`,
      files: [manifest.file],
      diff: unifiedDiff([{ file: manifest.file, before: manifest.text, after: text }]),
      writes: [{ file: manifest.file, content: text }],
      backup: [],
    },
  };
}
