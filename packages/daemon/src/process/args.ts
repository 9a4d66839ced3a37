import { parseArgs } from 'node:util';

export type Command =
  | { name: 'run'; port: number | undefined; host: string | undefined; dev: boolean }
  | { name: 'print-config'; port: number | undefined; host: string | undefined; json: boolean }
  | { name: 'help' }
  | { name: 'version' };

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage: node packages/daemon/dist/main.js <command> [options]

Commands:
  run [--port N] [--host H] [--dev]   Run the daemon in the foreground
  print-config [--json]               Print the merged configuration (token redacted)

Options:
  --port N   Port to listen on (0 picks a free one); else FORGE_PORT, config, 4317
  --host H   Address to bind; else FORGE_HOST, config, 127.0.0.1
  --dev      Serve the web workspace through Vite with hot reload
  --json     Machine-readable output
`;

function parsePort(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) > 65_535) {
    throw new UsageError(`Invalid --port "${raw}": expected an integer from 0 to 65535.`);
  }
  return Number(raw);
}

export function parseCommand(argv: readonly string[]): Command {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') return { name: 'help' };
  if (name === '--version' || name === '-v') return { name: 'version' };
  if (name !== 'run' && name !== 'print-config') throw new UsageError(`Unknown command "${name}".`);
  let values: { port?: string; host?: string; dev?: boolean; json?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...rest],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        dev: { type: 'boolean' },
        json: { type: 'boolean' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (name === 'run' && values.json) throw new UsageError('run does not take --json.');
  if (name === 'print-config' && values.dev) throw new UsageError('print-config does not take --dev.');
  const port = parsePort(values.port);
  const host = values.host?.trim() || undefined;
  return name === 'run'
    ? { name, port, host, dev: values.dev ?? false }
    : { name, port, host, json: values.json ?? false };
}
