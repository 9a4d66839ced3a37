/**
 * Monorepo task runners a workspace root drives its builds with: Turborepo (turbo.json + turbo in the
 * root's dependencies) and Lerna (lerna.json + lerna). Either builds an app and the workspace packages
 * it depends on, dependencies first, whatever the package manager. Rush is recognised and not driven:
 * it installs with its own copy of a package manager into the user's home, which a build here does
 * not have, so the plan says what to set instead. (Nx has its own planner: nx.ts.)
 */
import { parseJson } from '../scan/jsonc.ts';
import type { DecisionLog } from './decisions.ts';
import { NX_ENV } from './nx.ts';
import type { PackageInfo } from './package-json.ts';
import type { ProjectFiles } from './project-files.ts';

const TURBO_JSON = 'turbo.json';
const LERNA_JSON = 'lerna.json';
const RUSH_JSON = 'rush.json';

/** A task runner the root can build an app with. */
export interface TaskRunner {
  tool: 'turbo' | 'lerna';
  /** Its config file, the evidence. */
  file: string;
  /** "turbo in devDependencies", for rules. */
  dep: string;
  /** Environment its runs need: no telemetry, update checks or daemons on a build machine. */
  env: Record<string, string>;
  /** Why, for the plan. */
  envRule: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether turbo.json defines a `build` task (turbo 2 `tasks`, turbo 1 `pipeline`; `<pkg>#build` too). */
function hasBuildTask(config: unknown): boolean {
  if (!isRecord(config)) return false;
  const tasks = isRecord(config.tasks) ? config.tasks : isRecord(config.pipeline) ? config.pipeline : {};
  return Object.keys(tasks).some((name) => name === 'build' || name.endsWith('#build'));
}

/**
 * The task runner of the workspace root, or null: turbo when turbo.json defines a build task and the
 * root depends on turbo; else Lerna when lerna.json is there and the root depends on lerna. A
 * config without the tool installed (or a turbo.json without a build task) is noted and not used.
 */
export async function readTaskRunner(
  files: ProjectFiles,
  root: PackageInfo,
  log: DecisionLog,
): Promise<TaskRunner | null> {
  const turbo = await files.read(TURBO_JSON);
  const turboDep = root.depField('turbo');
  if (turbo) {
    const parsed = parseJson(turbo.text, { jsonc: true });
    const why = !turboDep
      ? 'turbo is not in the root package.json, so it is not installed to run'
      : !parsed.ok
        ? `cannot be parsed (line ${parsed.line}: ${parsed.message})`
        : !hasBuildTask(parsed.value)
          ? 'it defines no "build" task'
          : null;
    if (why === null) {
      return {
        tool: 'turbo',
        file: TURBO_JSON,
        dep: `turbo in ${turboDep}`,
        env: { TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
        envRule: 'no telemetry, no update check',
      };
    }
    log.add('taskRunner', 'turbo not used', TURBO_JSON, why);
  } else if (turboDep) {
    log.add('taskRunner', 'turbo not used', null, `turbo in ${turboDep} but no ${TURBO_JSON} to run it with`);
  }
  const lernaDep = root.depField('lerna');
  if (await files.isFile(LERNA_JSON)) {
    // Lerna 6+ runs its tasks with Nx: the same offline settings apply.
    if (lernaDep) {
      return {
        tool: 'lerna',
        file: LERNA_JSON,
        dep: `lerna in ${lernaDep}`,
        env: { ...NX_ENV },
        envRule: 'Lerna runs its tasks with Nx, without its daemon, terminal UI or Nx Cloud',
      };
    }
    log.add('taskRunner', 'lerna not used', LERNA_JSON, 'lerna is not in the root package.json');
  }
  return null;
}

/** The build of `name` and its workspace dependencies with the runner, and the rule. */
export function runnerBuild(runner: TaskRunner, name: string): { args: string[]; rule: string } {
  if (runner.tool === 'turbo') {
    return {
      args: ['turbo', 'run', 'build', `--filter=${name}...`],
      rule: `Turborepo (${runner.file}, ${runner.dep}) builds ${name} and the workspace packages it depends on, dependencies first`,
    };
  }
  return {
    args: ['lerna', 'run', 'build', '--scope', name, '--include-dependencies'],
    rule: `Lerna (${runner.file}, ${runner.dep}) builds ${name} and the packages it depends on, dependencies first`,
  };
}

/**
 * A Rush repository (rush.json) is not driven: Rush installs with its own package manager copy under
 * the user's home and links the projects itself. Say so, and what to set, rather than fail later.
 */
export async function noteRush(files: ProjectFiles, log: DecisionLog): Promise<boolean> {
  if (!(await files.isFile(RUSH_JSON))) return false;
  log.add(
    'taskRunner',
    'rush not driven',
    RUSH_JSON,
    'Forge does not run Rush (rush install, rush build); each app is installed on its own, which fails for ' +
      'workspace: dependencies. Set "install" (e.g. "npx @microsoft/rush install"), "build" ' +
      '("npx @microsoft/rush build --to <project>"), "app" and "outputDir" in the forge config',
  );
  return true;
}
