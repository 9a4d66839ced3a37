import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { CliError, EXIT } from '../output.ts';

export interface VerifyOptions {
  file: string;
  /** The DSSE envelope; default <file>.intoto.jsonl. */
  statement?: string;
  /** A public key PEM to trust; default: the key of the daemon this forge talks to. */
  key?: string;
  json?: boolean;
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
    deps.out.json({
      ok: result.ok,
      ...(result.ok ? {} : { code: 'VERIFY_FAILED' }),
      file,
      statement: statementFile,
      key: keySource,
      checks: result.checks,
    });
    // The document says it all: one JSON document on stdout, as --json promises.
    return result.ok ? EXIT.ok : EXIT.failure;
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
  return EXIT.ok;
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('verify')
    .description("check an artifact ZIP against its signed provenance (signature and the artifact's digest)")
    .argument('<artifact>', 'the artifact .zip (forge ci --provenance, GET /api/builds/<id>/artifact)')
    .option('--statement <file>', 'the DSSE envelope (default: <artifact>.intoto.jsonl)')
    .option('--key <file>', "a public key PEM to trust (default: the daemon's installation key)")
    .option('--json', 'print the checks as one JSON document')
    .action((file: string, opts: Omit<VerifyOptions, 'file'>, command: Command) =>
      invoke(command, run, { ...opts, file }),
    );
}
