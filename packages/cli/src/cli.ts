import { Command, CommanderError } from 'commander';
import type { Invoke } from './command.ts';
import { register as registerBots } from './commands/bots.ts';
import { register as registerBrain } from './commands/brain.ts';
import { register as registerBuild } from './commands/build.ts';
import { register as registerBuilds } from './commands/builds.ts';
import { register as registerCancel } from './commands/cancel.ts';
import { register as registerChat } from './commands/chat.ts';
import { register as registerCi } from './commands/ci.ts';
import { register as registerCompletion } from './commands/completion.ts';
import { register as registerConfig } from './commands/config.ts';
import { register as registerDaemon } from './commands/daemon.ts';
import { register as registerDownload } from './commands/download.ts';
import { register as registerExt } from './commands/ext.ts';
import { register as registerApps } from './commands/apps.ts';
import { register as registerFamily } from './commands/family.ts';
import { register as registerFix } from './commands/fix.ts';
import { register as registerGenerate } from './commands/generate.ts';
import { registerLogin, registerLogout } from './commands/login.ts';
import { register as registerLogs } from './commands/logs.ts';
import { register as registerMemory } from './commands/memory.ts';
import { register as registerOpen } from './commands/open.ts';
import { register as registerPlan } from './commands/plan.ts';
import { register as registerPreview } from './commands/preview.ts';
import { register as registerSbom } from './commands/sbom.ts';
import { register as registerDiff } from './commands/diff.ts';
import { register as registerHistory } from './commands/history.ts';
import { register as registerRollback } from './commands/rollback.ts';
import { register as registerScan } from './commands/scan.ts';
import { register as registerSettings } from './commands/settings.ts';
import { register as registerStatus } from './commands/status.ts';
import { register as registerTui } from './commands/tui.ts';
import { register as registerUpload } from './commands/upload.ts';
import { register as registerUse } from './commands/use.ts';
import { register as registerVerify } from './commands/verify.ts';
import { register as registerWorker } from './commands/worker.ts';
import { register as registerWorkers } from './commands/workers.ts';
import { resolveGlobals, type GlobalOptions } from './context.ts';
import { createDeps } from './deps.ts';
import { createOutput, ENVIRONMENT_HELP, EXIT, EXIT_CODES_HELP, reportError } from './output.ts';
import { CLI_VERSION } from './version.ts';

/*
 * `forge`: program wiring. Everything imported statically here is light: commander, our own small
 * modules, the deps and the CLI's HTTP client (no zod), type-only imports. It is one chunk of the
 * bundle, so a read command loads few files. What only some commands need (@forge/shared with zod
 * for following builds, ws, open, Ink) loads when such a command runs.
 */

const out = createOutput();

const invokeCommand: Invoke = async (command, run, opts) => {
  const deps = createDeps({ out, options: command.optsWithGlobals<GlobalOptions>() });
  const code = await run(deps, opts);
  process.exitCode = code ?? EXIT.ok;
};

/** Commands that need the whole program, not only themselves (completion describes every command). */
const NEEDS_ALL = new Set(['completion']);

/**
 * The program. With `only`, the name of the command being run, just that command is built (with the
 * global options): what it parses and prints is the same, and the others cost nothing.
 */
export function createProgram(only?: string, invoke: Invoke = invokeCommand): Command {
  const program = new Command('forge');
  program
    .description('Forge: drop a project ZIP, get it built, tested and previewed by a local daemon.')
    .version(CLI_VERSION, '-v, --version', 'print the forge version')
    .helpOption('-h, --help', 'show help for a command')
    // Usage errors become exit code 2 (see main); help and --version still exit 0.
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .option(
      '--url <url>',
      "use the daemon at this URL instead of this machine's (env FORGE_URL, BOT_SERVICE_URL)",
    )
    .option('--token <token>', 'access token for the daemon (env FORGE_TOKEN)')
    .option('--start-daemon', 'start the daemon when needed even under CI=true (env FORGE_AUTOSTART=1)')
    .option(
      '--no-color',
      'plain output: no colours or redrawn progress lines (also NO_COLOR=1, TERM=dumb, or stdout not a terminal)',
    )
    .addHelpText('after', `${EXIT_CODES_HELP}\n${ENVIRONMENT_HELP}\n`);

  // Help lists commands in this order: the build workflow first, then the daemon and the rest.
  const commands: Array<[name: string, register: () => void]> = [
    ['upload', () => registerUpload(program, invoke)],
    ['ci', () => registerCi(program, invoke)],
    ['build', () => registerBuild(program, invoke)],
    ['builds', () => registerBuilds(program, invoke)],
    ['use', () => registerUse(program, invoke)],
    ['logs', () => registerLogs(program, invoke)],
    ['cancel', () => registerCancel(program, invoke)],
    // The assistants: RepairBot, ScanBot, the chat, the brain and its memory, CodeGenBot.
    ['fix', () => registerFix(program, invoke)],
    ['scan', () => registerScan(program, invoke)],
    ['plan', () => registerPlan(program, invoke)],
    ['preview', () => registerPreview(program, invoke)],
    ['download', () => registerDownload(program, invoke)],
    ['sbom', () => registerSbom(program, invoke)],
    ['diff', () => registerDiff(program, invoke)],
    ['verify', () => registerVerify(program, invoke)],
    ['history', () => registerHistory(program, invoke)],
    ['rollback', () => registerRollback(program, invoke)],
    ['chat', () => registerChat(program, invoke)],
    ['brain', () => registerBrain(program, invoke)],
    ['memory', () => registerMemory(program, invoke)],
    ['generate', () => registerGenerate(program, invoke)],
    ['ext', () => registerExt(program, invoke)],
    ['apps', () => registerApps(program, invoke)],
    ['family', () => registerFamily(program, invoke)],
    ['login', () => registerLogin(program, invoke)],
    ['logout', () => registerLogout(program, invoke)],
    ['bots', () => registerBots(program, invoke)],
    ['status', () => registerStatus(program, invoke)],
    ['daemon', () => registerDaemon(program, invoke)],
    // Scale-out: builds run by `forge worker` processes on other machines.
    ['worker', () => registerWorker(program, invoke)],
    ['workers', () => registerWorkers(program, invoke)],
    ['open', () => registerOpen(program, invoke)],
    ['settings', () => registerSettings(program, invoke)],
    ['config', () => registerConfig(program, invoke)],
    ['tui', () => registerTui(program, invoke)],
    ['completion', () => registerCompletion(program)],
  ];
  const single = only !== undefined && !NEEDS_ALL.has(only) && commands.some(([name]) => name === only);
  for (const [name, register] of commands) if (!single || name === only) register();
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = createProgram(commandName(argv.slice(2)));
  try {
    await program.parseAsync(argv);
    return Number(process.exitCode ?? EXIT.ok);
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander has already printed the message (or the help / version).
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const globals = resolveGlobals(program.opts<GlobalOptions>(), process.env);
    return reportError(err, out, { remote: globals.url !== undefined });
  }
}

/** Global options that take a value (the next argument, or `--url=…`). */
const GLOBAL_VALUE_OPTIONS = new Set(['--url', '--token']);

/**
 * The command named on the command line: the first argument that is neither an option nor the value
 * of a global option. Undefined when there is none (then the whole program is built).
 */
export function commandName(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1];
    if (GLOBAL_VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}
