import { Command, CommanderError } from 'commander';
import type { Invoke } from './command.ts';
import { register as registerBots } from './commands/bots.ts';
import { register as registerBuild } from './commands/build.ts';
import { register as registerBuilds } from './commands/builds.ts';
import { register as registerCancel } from './commands/cancel.ts';
import { register as registerCi } from './commands/ci.ts';
import { register as registerCompletion } from './commands/completion.ts';
import { register as registerConfig } from './commands/config.ts';
import { register as registerDaemon } from './commands/daemon.ts';
import { register as registerDownload } from './commands/download.ts';
import { register as registerLogs } from './commands/logs.ts';
import { register as registerOpen } from './commands/open.ts';
import { register as registerPlan } from './commands/plan.ts';
import { register as registerPreview } from './commands/preview.ts';
import { register as registerSettings } from './commands/settings.ts';
import { register as registerStatus } from './commands/status.ts';
import { register as registerTui } from './commands/tui.ts';
import { register as registerUpload } from './commands/upload.ts';
import { resolveGlobals, type GlobalOptions } from './context.ts';
import { createOutput, ENVIRONMENT_HELP, EXIT, EXIT_CODES_HELP, reportError } from './output.ts';
import { CLI_VERSION } from './version.ts';

/*
 * `forge`: program wiring. Everything imported statically here is light (commander, our own small
 * modules, type-only imports); a command's heavy dependencies (@forge/shared with zod, ws, open,
 * Ink) load only when that command runs, so `forge --version` and `--help` stay fast.
 */

const out = createOutput();

const invoke: Invoke = async (command, run, opts) => {
  const { createDeps } = await import('./deps.ts');
  const deps = createDeps({ out, options: command.optsWithGlobals<GlobalOptions>() });
  const code = await run(deps, opts);
  process.exitCode = code ?? EXIT.ok;
};

export function createProgram(): Command {
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
  registerUpload(program, invoke);
  registerCi(program, invoke);
  registerBuild(program, invoke);
  registerBuilds(program, invoke);
  registerLogs(program, invoke);
  registerCancel(program, invoke);
  registerPlan(program, invoke);
  registerPreview(program, invoke);
  registerDownload(program, invoke);
  registerBots(program, invoke);
  registerStatus(program, invoke);
  registerDaemon(program, invoke);
  registerOpen(program, invoke);
  registerSettings(program, invoke);
  registerConfig(program, invoke);
  registerTui(program, invoke);
  registerCompletion(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = createProgram();
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

// `forge … | head` closes stdout early; that is not an error worth a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(EXIT.ok);
  throw err;
});

process.exitCode = await main(process.argv);
