import type { Build, FixResult } from '@forge/shared';
import type { Command } from 'commander';
import { alignRows, diagnosisRows } from '../builds/failure.ts';
import { JsonResult } from '../builds/json-result.ts';
import { defaultProjectName } from '../builds/resolve.ts';
import { addWaitOptions, checkWaitOptions, startDeadline, type WaitOptions } from '../builds/wait-options.ts';
import type { Invoke } from '../command.ts';
import type { Connection, Deps } from '../deps.ts';
import type { CliClient } from '../http/client.ts';
import { CliError, EXIT, EXIT_CODES_HELP } from '../output.ts';
import { paint } from '../terminal.ts';
import { formatRepair, formatUndo } from '../views/repairs.ts';

export interface FixOptions extends WaitOptions {
  buildId?: string;
  /** --undo, or --undo <repairId>: restore the files of the newest applied repairs (or of that one). */
  undo?: boolean | string;
  project?: string;
  json?: boolean;
  wait?: boolean;
}

/** How many of a project's newest builds are searched for the failed one. */
const SEARCH_LIMIT = 50;

/** Statuses of a build that ended without succeeding, which RepairBot may have something for. */
const FIXABLE = new Set<Build['status']>(['failed', 'timed-out', 'interrupted']);

/**
 * `forge fix [buildId]`: apply the repairs RepairBot proposed for a failed build (the newest failed
 * build of the project when none is named), print each with its diff, and start the build again;
 * with --wait, follow that build like `forge build --wait`. `--undo` writes the files of the newest
 * applied repairs back.
 */
export async function run(deps: Deps, opts: FixOptions): Promise<number> {
  // Only a followed build prints the build result; otherwise --json prints the daemon's answer.
  const json = new JsonResult(deps.out, opts.json === true && opts.wait === true, {
    remote: deps.globals.url !== undefined,
    ...(opts.project ? { projectName: opts.project } : {}),
  });
  try {
    if (opts.undo !== undefined && opts.undo !== false) return await undo(deps, opts);
    return await fix(deps, opts, json);
  } catch (err) {
    json.printError(err);
    throw err;
  }
}

async function fix(deps: Deps, opts: FixOptions, json: JsonResult): Promise<number> {
  checkWaitOptions(opts, true);
  // A fix's build runs the tests the repairs are checked by: it can weigh them, not leave them out.
  if (opts.tests === 'skip') {
    throw new CliError('--tests skip does not apply to forge fix: its build runs the tests.', {
      exitCode: EXIT.usage,
      hint: 'Use --tests optional to report failing tests without failing the verdict.',
    });
  }
  const connection = await deps.connect({ live: opts.wait === true });
  const build = await failedBuild(connection.client, opts);
  json.context.projectName = build.projectName;
  checkFixable(build);

  const { openFeed, followAndReport } = await import('../lazy.ts');
  // Greeted before the new build starts, so none of its events is missed.
  const feed = opts.wait ? await openFeed(deps, connection) : undefined;
  try {
    const deadline = startDeadline(opts);
    const result = await connection.client.request('buildFix', { params: { id: build.id }, body: {} });
    json.context.buildId = result.buildId;
    // With --json, stdout holds the one document: the daemon's answer, or the new build's result.
    if (!opts.json) printFix(deps, build, result);
    else for (const repair of result.repairs) deps.out.info(repair.summary);
    if (!feed) {
      if (opts.json) deps.out.json(result);
      else {
        deps.out.info(`Follow the build with: forge logs -f ${result.buildId}`);
        deps.out.info(
          `Undo the repairs with: forge fix --undo${opts.project ? ` --project ${opts.project}` : ''}`,
        );
      }
      return EXIT.ok;
    }
    return await followAndReport(deps, json, {
      connection,
      feed,
      buildId: result.buildId,
      projectName: build.projectName,
      deadline,
      logs: opts.logs,
      tests: opts.tests,
      json: opts.json,
    });
  } finally {
    feed?.close();
  }
}

/** The repairs applied (stdout: they are what the command did), then the new build (stderr). */
function printFix(deps: Deps, build: Build, result: FixResult): void {
  const color = paint(deps.term.stdoutColor);
  if (result.repairs.length === 0) deps.out.info(result.message);
  for (const made of result.repairs) {
    // What the proposal's trial on a copy of the project showed before it was applied.
    const proposed = build.repairs.find((r) => r.status === 'proposed' && r.code === made.code);
    const repair =
      !made.verification && proposed?.verification ? { ...made, verification: proposed.verification } : made;
    for (const line of formatRepair(repair, color)) deps.out.data(line);
  }
  deps.out.info(
    `Build ${result.buildId} of ${build.projectName} started with the repairs (fixing build ${build.id}).`,
  );
}

/** The build named, or the newest failed build of the project (given, or the current one). */
async function failedBuild(client: CliClient, opts: FixOptions): Promise<Build> {
  if (opts.buildId) {
    const build = await client.request('build', { params: { id: opts.buildId } });
    if (opts.project && build.projectName !== opts.project) {
      throw new CliError(`Build ${build.id} is of project ${build.projectName}, not ${opts.project}.`, {
        exitCode: EXIT.usage,
      });
    }
    return build;
  }
  const project = opts.project ?? (await defaultProjectName(client));
  const builds = await client.request('builds', { query: { project, limit: SEARCH_LIMIT } });
  if (builds.length === 0) {
    throw new CliError(`Project ${project} has no builds.`, {
      code: 'NOTHING_TO_FIX',
      hint: `Build it first: forge build ${project} --wait`,
    });
  }
  // Newest first: a build still running or a newer success means there is nothing to fix now.
  for (const build of builds) {
    if (build.status === 'cancelled') continue;
    return build;
  }
  throw new CliError(`Nothing to fix: every recent build of ${project} was cancelled.`, {
    code: 'NOTHING_TO_FIX',
  });
}

/**
 * Refuse, with what to do instead, a build RepairBot cannot act on: one still running, one that
 * succeeded or was cancelled, one with no repair proposed (then ScanBot's diagnosis says what to
 * change by hand). The daemon makes the same checks; this says it before anything is sent.
 */
function checkFixable(build: Build): void {
  if (build.status === 'queued' || build.status === 'running') {
    throw new CliError(`Build ${build.id} of ${build.projectName} is still ${build.status}.`, {
      code: 'NOTHING_TO_FIX',
      hint: `Wait for it to end (forge logs -f ${build.id}), then run forge fix again.`,
    });
  }
  if (!FIXABLE.has(build.status)) {
    throw new CliError(`Nothing to fix: build ${build.id} of ${build.projectName} ${build.status}.`, {
      code: 'NOTHING_TO_FIX',
    });
  }
  const repairs = build.repairs ?? [];
  if (repairs.some((r) => r.status === 'proposed') || build.diagnosis?.repair) return;
  const applied = repairs.filter((r) => r.status === 'applied');
  const details = build.diagnosis ? alignRows(diagnosisRows(build.diagnosis), paint(false)) : [];
  throw new CliError(
    applied.length > 0
      ? `Nothing to fix: RepairBot already made its repairs during build ${build.id}, and it still failed.`
      : `Nothing to fix: RepairBot has no safe repair for build ${build.id}.`,
    {
      code: 'NOTHING_TO_FIX',
      details,
      hint: build.diagnosis?.suggestion
        ? 'Change what the diagnosis names, then build again: forge build --wait'
        : `See why it failed: forge logs ${build.id}`,
    },
  );
}

/** --undo: write back the files of the newest applied repairs (or of the one named). */
async function undo(deps: Deps, opts: FixOptions): Promise<number> {
  if (opts.wait)
    throw new CliError('--wait does not apply with --undo (it builds nothing).', { exitCode: EXIT.usage });
  checkWaitOptions(opts, true);
  const connection: Connection = await deps.connect();
  const { client } = connection;
  const project =
    opts.project ??
    (opts.buildId
      ? (await client.request('build', { params: { id: opts.buildId } })).projectName
      : await defaultProjectName(client));
  const id = typeof opts.undo === 'string' ? opts.undo : undefined;
  const result = await client.request('undoRepair', {
    params: { name: project },
    body: id ? { id } : {},
  });
  if (opts.json) {
    deps.out.json(result);
    return result.restored.length > 0 ? EXIT.ok : EXIT.failure;
  }
  if (result.restored.length === 0) {
    throw new CliError(result.message || `Nothing to undo: no repair of ${project} is applied.`, {
      code: 'NOTHING_TO_UNDO',
    });
  }
  deps.out.info(result.message);
  for (const line of formatUndo(result, paint(deps.term.stdoutColor))) deps.out.data(line);
  deps.out.info(`Build again with the restored files: forge build ${project} --wait`);
  return EXIT.ok;
}

export function register(program: Command, invoke: Invoke): void {
  const command = program
    .command('fix')
    .description("apply RepairBot's proposed repairs to a failed build and build again (--undo restores)")
    .argument('[buildId]', 'the failed build (default: the newest build of the project, if it failed)')
    .option('-p, --project <name>', 'the project (default: the current one, see forge use)')
    .option('--undo [repairId]', 'restore the files of the newest applied repairs (or of one repair)')
    .option('-w, --wait', 'follow the new build to its end; the exit code says how it ended (see below)')
    .option('--json', 'print JSON on stdout (the repairs and the new build; with --wait: the build result)');
  addWaitOptions(command)
    .addHelpText(
      'after',
      `
RepairBot proposes a repair when the autoRepair setting is off (with it on, it makes them during the
build): an undeclared package added to package.json, an import's letter case corrected, a reinstall
without the frozen lockfile, the legacy peer-dependency mode, the framework's build command, fresh
node_modules. Each is printed with its diff. The original files are kept: forge fix --undo writes
them back. Without a repair to make, forge fix says so (exit 1) with ScanBot's diagnosis.
${EXIT_CODES_HELP}`,
    )
    .action((buildId: string | undefined, opts: Omit<FixOptions, 'buildId'>, command: Command) =>
      invoke(command, run, { ...opts, buildId }),
    );
}
