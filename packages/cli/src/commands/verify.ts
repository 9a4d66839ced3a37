import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import type { InTotoStatement, Rebuild } from '@forge/shared';
import { CliError, EXIT } from '../output.ts';

export interface VerifyOptions {
  file: string;
  /** The DSSE envelope; default <file>.intoto.jsonl. */
  statement?: string;
  /** A public key PEM to trust; default: the key of the daemon this forge talks to. */
  key?: string;
  json?: boolean;
  /** Build the recorded source again on the daemon and compare its artifact with this one. */
  rebuild?: boolean;
}

/**
 * `forge verify <artifact.zip>`: the provenance beside the artifact is signed by the trusted key and
 * names this artifact's digest (docs/artifacts.md). Offline with --key; else the key is the daemon's.
 */
export async function run(deps: Deps, opts: VerifyOptions): Promise<number> {
  const { existsSync, readFileSync } = await import('node:fs');
  const { resolve } = await import('node:path');
  const { verifyArtifact } = await import('../artifacts/verify.ts');
  const file = resolve(deps.cwd, opts.file);
  if (!existsSync(file)) {
    throw new CliError(`There is no file ${opts.file}.`, { exitCode: EXIT.usage, code: 'USAGE' });
  }
  const statementFile = resolve(deps.cwd, opts.statement ?? `${opts.file}.intoto.jsonl`);
  if (!existsSync(statementFile)) {
    throw new CliError(`No provenance statement at ${statementFile}.`, {
      exitCode: EXIT.usage,
      code: 'STATEMENT_NOT_FOUND',
      hint: 'Give it with --statement <file>; forge ci --provenance writes it beside the artifact, GET /api/builds/<id>/provenance serves it.',
    });
  }
  let publicKey: string;
  let keySource: string;
  if (opts.key) {
    publicKey = readFileSync(resolve(deps.cwd, opts.key), 'utf8');
    keySource = opts.key;
  } else {
    const { client } = await deps.connect();
    publicKey = (await client.request('provenanceKey', {})).publicKey;
    keySource = "the daemon's installation key";
  }
  let result;
  try {
    result = verifyArtifact(readFileSync(file), readFileSync(statementFile, 'utf8'), publicKey);
  } catch (err) {
    throw new CliError(`Cannot read the public key ${keySource}: ${(err as Error).message}`, {
      exitCode: EXIT.usage,
      code: 'USAGE',
    });
  }
  const predicate = (result.statement?.predicate ?? {}) as {
    runDetails?: {
      builder?: { id?: string; version?: { forge?: string } };
      metadata?: { invocationId?: string; finishedOn?: string };
    };
  };
  if (opts.json) {
    const rebuilt = result.ok && opts.rebuild ? await rebuildOf(deps, result.statement) : null;
    deps.out.json({
      ok: result.ok && (rebuilt === null || rebuilt.status === 'identical'),
      ...(result.ok ? {} : { code: 'VERIFY_FAILED' }),
      ...(rebuilt?.status === 'differs' ? { code: 'REBUILD_DIFFERS' } : {}),
      ...(rebuilt?.error ? { code: rebuilt.error.code } : {}),
      file,
      statement: statementFile,
      key: keySource,
      checks: result.checks,
      ...(rebuilt ? { rebuild: rebuilt } : {}),
    });
    // The document says it all: one JSON document on stdout, as --json promises.
    if (!result.ok) return EXIT.failure;
    return rebuilt ? rebuildExit(rebuilt) : EXIT.ok;
  } else {
    for (const c of result.checks) deps.out.data(`${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`);
    const run = predicate.runDetails;
    if (result.ok && run) {
      deps.out.data(
        `Built by Forge ${run.builder?.version?.forge ?? '?'} (${run.builder?.id ?? '?'}), build ${run.metadata?.invocationId ?? '?'}, finished ${run.metadata?.finishedOn ?? '?'}.`,
      );
    }
  }
  if (!result.ok) {
    throw new CliError(`${opts.file} does not match its provenance.`, {
      exitCode: EXIT.failure,
      code: 'VERIFY_FAILED',
    });
  }
  if (opts.rebuild) return reportRebuild(deps, await rebuildOf(deps, result.statement));
  return EXIT.ok;
}

/** The rebuild's outcome as an exit code: identical, differs, or could not rebuild. */
const rebuildExit = (r: Rebuild): number =>
  r.status === 'identical' ? EXIT.ok : r.status === 'differs' ? EXIT.rebuildDiffers : EXIT.cannotRebuild;

/**
 * `--rebuild`: the daemon builds the statement's source again (the one it kept, by digest) with the
 * recorded plan and toolchains; forge waits for it. A daemon that keeps no such source answers at once.
 */
async function rebuildOf(deps: Deps, statement: InTotoStatement | null): Promise<Rebuild> {
  const { rebuildRequestOf, waitForRebuild } = await import('../artifacts/rebuild.ts');
  const body = statement ? rebuildRequestOf(statement) : null;
  if (!body) {
    throw new CliError(
      'The statement names no build, source digest or subject to rebuild [REBUILD_SOURCE_NOT_KEPT].',
      {
        exitCode: EXIT.cannotRebuild,
        code: 'REBUILD_SOURCE_NOT_KEPT',
      },
    );
  }
  const { client } = await deps.connect();
  let started: Rebuild;
  try {
    started = await client.request('startRebuild', { body });
  } catch (err) {
    const e = err as { name?: string; code?: string; serverMessage?: string; hint?: string };
    if (e.name === 'ForgeHttpError' && e.code?.startsWith('REBUILD_')) {
      throw new CliError(`${e.serverMessage ?? 'The daemon cannot rebuild this artifact.'} [${e.code}]`, {
        exitCode: EXIT.cannotRebuild,
        code: e.code,
        ...(e.hint ? { hint: e.hint } : {}),
      });
    }
    throw err;
  }
  return waitForRebuild((wait) => client.request('rebuild', { params: { id: started.id }, query: { wait } }));
}

/** Print the rebuild's outcome: identical, each differing file with both sides, or why it could not. */
async function reportRebuild(deps: Deps, r: Rebuild): Promise<number> {
  const { formatDifference } = await import('../artifacts/rebuild.ts');
  const tools = r.tools.length ? ` with ${r.tools.join(', ')}` : '';
  if (r.status === 'identical') {
    deps.out.data(
      `✓ rebuild: identical — build ${r.buildId} of ${r.projectName} rebuilt from source ${r.sourceSha256.slice(0, 16)}…${tools} gives sha256 ${r.sha256}, the statement's subject.`,
    );
    return EXIT.ok;
  }
  if (r.status === 'differs') {
    deps.out.data(
      `✗ rebuild: differs — build ${r.buildId} of ${r.projectName} rebuilt${tools} gives sha256 ${r.sha256}, the statement names ${r.expectedSha256}.`,
    );
    if (r.differences.length) {
      deps.out.data(`${r.differences.length} file${r.differences.length === 1 ? '' : 's'} differ:`);
      for (const d of r.differences) for (const line of formatDifference(d)) deps.out.data(line);
    }
    throw new CliError('The rebuilt artifact is not the one the statement names [REBUILD_DIFFERS].', {
      exitCode: EXIT.rebuildDiffers,
      code: 'REBUILD_DIFFERS',
      hint: 'The files above differ between builds of the same source: docs/artifacts.md says what makes a build reproducible.',
    });
  }
  const code = r.error?.code ?? 'REBUILD_FAILED';
  throw new CliError(`${r.error?.message ?? 'The daemon could not rebuild this artifact.'} [${code}]`, {
    exitCode: EXIT.cannotRebuild,
    code,
    details: r.log.slice(-15),
  });
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('verify')
    .description(
      "check an artifact ZIP against its signed provenance (signature and the artifact's digest); --rebuild: build it again and compare",
    )
    .argument('<artifact>', 'the artifact .zip (forge ci --provenance, GET /api/builds/<id>/artifact)')
    .option('--statement <file>', 'the DSSE envelope (default: <artifact>.intoto.jsonl)')
    .option('--key <file>', "a public key PEM to trust (default: the daemon's installation key)")
    .option('--json', 'print the checks as one JSON document')
    .option(
      '--rebuild',
      'also build the recorded source again on the daemon (recorded plan and toolchains) and compare, file by file',
    )
    .action((file: string, opts: Omit<VerifyOptions, 'file'>, command: Command) =>
      invoke(command, run, { ...opts, file }),
    );
}
