import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { EXIT_CODES_HELP } from '../output.ts';
import { addWaitOptions } from '../builds/wait-options.ts';
import type { CiOptions } from '../ci/run-ci.ts';

export type { CiOptions } from '../ci/run-ci.ts';

/** `forge ci` runs in ci/run-ci.ts (loaded only when the command runs). */
export async function run(deps: Deps, opts: CiOptions): Promise<number> {
  const { runCi } = await import('../lazy.ts');
  return runCi(deps, opts);
}

export function register(program: Command, invoke: Invoke): void {
  const command = program
    .command('ci')
    .description('one-shot CI build: upload, wait, write the artifact and a JUnit report, exit by the result')
    .argument('<zip>', 'the project as a .zip file')
    .option('-o, --output <file>', 'write the build output (artifact) ZIP here when the build succeeds')
    .option(
      '--provenance',
      'with -o: also write <file>.intoto.jsonl (signed SLSA provenance), <file>.cdx.json (SBOM) and <file>.pub.pem (the key)',
    )
    .option(
      '--junit <file>',
      "write a JUnit XML report of the project's test cases and the pipeline steps here",
    )
    .option('--json', 'print the result as one JSON document on stdout (also for a refusal or an error)')
    .option('--no-cache', 'build from scratch even if the same source was built before');
  addWaitOptions(command)
    .addHelpText(
      'after',
      `
Uses the daemon given with --url / FORGE_URL, or the one running for FORGE_HOME. When there is none,
forge ci starts a private daemon for this run only: in a temporary FORGE_HOME, on a free port of
127.0.0.1, with a random access token; it is stopped and its folder removed when forge ci ends (also
on failure, --timeout and Ctrl+C). The user's FORGE_HOME is never written to.

Progress (and with --logs the build's log) goes to stderr. The JUnit report is written whatever the
result: the project's own test cases in a suite named after it (Vitest, Jest, node --test and Mocha
are read case by case; another runner is one case with the tail of its output), and Forge's steps
in a suite "forge". The artifact is written when the build succeeded, also when its tests failed.
The project's tests decide the exit code: failing tests exit 7 (the build's status stays
"succeeded"; "tests" says what the tests said) unless --tests optional, or "tests": "optional"
in the project's forge config; --tests skip does not run them.
The JSON document is the one of forge upload --wait --json, plus "artifact" and "junit" (paths);
with a private daemon its previewUrl is null (the preview stops with the daemon).
${EXIT_CODES_HELP}`,
    )
    .action((zip: string, opts: Omit<CiOptions, 'file'>, command: Command) =>
      invoke(command, run, { ...opts, file: zip }),
    );
}
