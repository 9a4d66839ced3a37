import { parseArgs, type ParseArgsConfig } from 'node:util';
import { WorkerName } from '@forge/shared';

export type Command =
  | { name: 'run'; port: number | undefined; host: string | undefined; dev: boolean }
  | { name: 'print-config'; port: number | undefined; host: string | undefined; json: boolean }
  | {
      name: 'worker';
      queue: string | undefined;
      url: string | undefined;
      workerName: string | undefined;
      concurrency: number;
    }
  | { name: 'help' }
  | { name: 'version' };

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage: node packages/daemon/dist/main.js <command> [options]

Commands:
  run [--port N] [--host H] [--dev]   Run the daemon in the foreground
  print-config [--json]               Print the merged configuration (token redacted)
  worker --url U [--queue R] [--name N] [--concurrency K]
                                      Take build jobs from the coordinator at U via the Redis R

Options:
  --port N   Port to listen on (0 picks a free one); else FORGE_PORT, config, 4317
  --host H   Address to bind; else FORGE_HOST, config, 127.0.0.1
  --dev      Serve the web workspace through Vite with hot reload
  --json     Machine-readable output
  --queue R  Redis URL of the build queue; else FORGE_QUEUE_URL, config queue
  --url U    The coordinator daemon's URL, e.g. http://10.0.0.5:4317
  --name N   This worker's name in build records (default: the host name)
  --concurrency K  Builds this worker runs at once (default 1)
`;

function parsePort(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) > 65_535) {
    throw new UsageError(`Invalid --port "${raw}": expected an integer from 0 to 65535.`);
  }
  return Number(raw);
}

/** A command's `--options` (no positionals); anything else is a usage error. */
function options<T extends ParseArgsConfig['options']>(args: readonly string[], spec: T) {
  try {
    return parseArgs({ args: [...args], strict: true, allowPositionals: false, options: spec }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function parseCommand(argv: readonly string[]): Command {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') return { name: 'help' };
  if (name === '--version' || name === '-v') return { name: 'version' };
  if (name === 'worker') return parseWorker(rest);
  if (name !== 'run' && name !== 'print-config') throw new UsageError(`Unknown command "${name}".`);
  const values = options(rest, {
    port: { type: 'string' },
    host: { type: 'string' },
    dev: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (name === 'run' && values.json) throw new UsageError('run does not take --json.');
  if (name === 'print-config' && values.dev) throw new UsageError('print-config does not take --dev.');
  const port = parsePort(values.port);
  const host = values.host?.trim() || undefined;
  return name === 'run'
    ? { name, port, host, dev: values.dev ?? false }
    : { name, port, host, json: values.json ?? false };
}

function parseWorker(rest: readonly string[]): Command {
  const values = options(rest, {
    queue: { type: 'string' },
    url: { type: 'string' },
    name: { type: 'string' },
    concurrency: { type: 'string' },
  });
  const raw = values.concurrency ?? '1';
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 256) {
    throw new UsageError(`Invalid --concurrency "${raw}": expected an integer from 1 to 256.`);
  }
  const workerName = values.name?.trim() || undefined;
  if (workerName !== undefined && !WorkerName.safeParse(workerName).success) {
    throw new UsageError(
      `Invalid --name "${workerName}": letters, digits, dots, dashes and underscores, at most 64.`,
    );
  }
  return {
    name: 'worker',
    queue: values.queue?.trim() || undefined,
    url: values.url?.trim() || undefined,
    workerName,
    concurrency: Number(raw),
  };
}

/** A worker name from a host name: what the shared WorkerName accepts. */
export function workerNameFromHost(host: string): string {
  const name = host
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
  return name || 'worker';
}
