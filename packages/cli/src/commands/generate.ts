import { stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Argument, type Command } from 'commander';
import type { CodeKind } from '@forge/shared';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { CliError, EXIT } from '../output.ts';
import { CODE_KINDS } from '../protocol/facts.ts';

export interface GenerateOptions {
  kind: string;
  description: string[];
  /** -o: a file to write, or an existing folder to write the generated file name into. */
  output?: string;
  /** --js: plain JavaScript instead of TypeScript. */
  js?: boolean;
  force?: boolean;
  json?: boolean;
}

/**
 * `forge generate <kind> "<description>"`: CodeGenBot writes a component, API handler, function or
 * schema from a description (a name and typed fields: "UserCard with name: string, age?: number").
 * The code goes to stdout, or with -o to a file — never over an existing one unless --force.
 */
export async function run(deps: Deps, opts: GenerateOptions): Promise<number> {
  const description = opts.description.join(' ').trim();
  if (!description) {
    throw new CliError(
      'Describe what to generate, e.g. forge generate component "UserCard with name: string".',
      {
        exitCode: EXIT.usage,
      },
    );
  }
  const kindOf = async (path: string): Promise<'dir' | 'file' | 'none'> => {
    const found = await stat(path).catch(() => null);
    return found === null ? 'none' : found.isDirectory() ? 'dir' : 'file';
  };

  // Checked before asking the daemon: a file that is there stays as it is.
  const requested = opts.output === undefined ? undefined : resolve(deps.cwd, opts.output);
  const requestedKind = requested === undefined ? 'none' : await kindOf(requested);
  if (requested && requestedKind === 'file' && !opts.force) throw exists(requested);

  const { client } = await deps.connect();
  const result = await client.request('generate', {
    body: { kind: opts.kind as CodeKind, description, language: opts.js ? 'javascript' : 'typescript' },
  });

  let written: string | undefined;
  if (requested) {
    written = requestedKind === 'dir' ? join(requested, result.fileName) : requested;
    try {
      await writeFile(written, result.code.endsWith('\n') ? result.code : `${result.code}\n`, {
        flag: opts.force ? 'w' : 'wx',
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw exists(written);
      throw new CliError(`Cannot write ${written}: ${(err as Error).message}`);
    }
  }

  if (opts.json) {
    deps.out.json({ ...result, ...(written ? { path: written } : {}) });
    return EXIT.ok;
  }
  const fields = result.fields.map((f) => `${f.name}${f.optional ? '?' : ''}: ${f.type}`).join(', ');
  const by = result.source === 'model' ? 'the model' : 'the built-in generator';
  deps.out.info(
    `CodeGenBot: ${opts.kind} ${result.name}${fields ? ` (${fields})` : ''}, ${result.language}, written by ${by}.`,
  );
  // Whether the code does what was asked, or is scaffolding to finish by hand, and why.
  if (result.kind === 'skeleton') deps.out.info(`Skeleton, not an implementation: ${result.reason}.`);
  else deps.out.info(`Implemented: ${result.reason}.`);
  if (written) {
    deps.out.data(written);
  } else {
    deps.out.info(`Suggested file name: ${result.fileName} (write it with -o ${result.fileName})`);
    deps.out.text(result.code.endsWith('\n') ? result.code : `${result.code}\n`);
  }
  return EXIT.ok;
}

const exists = (path: string) =>
  new CliError(`${path} already exists; nothing was written.`, {
    hint: 'Pass --force to overwrite it, or choose another file with -o.',
  });

export function register(program: Command, invoke: Invoke): void {
  program
    .command('generate')
    .description('CodeGenBot: a component, API handler, function or schema from a description')
    .addArgument(new Argument('<kind>', 'what to write').choices([...CODE_KINDS]))
    .argument('<description...>', 'a name and its fields, e.g. "UserCard with name: string, age?: number"')
    .option('-o, --output <file>', 'write the code to this file (or into this folder, under its own name)')
    .option('--js', 'plain JavaScript instead of TypeScript')
    .option('--force', 'overwrite the -o file if it exists')
    .option(
      '--json',
      'print the result as JSON (code, language, fileName, name, fields, kind, reason; path with -o)',
    )
    .addHelpText(
      'after',
      `
The description names the thing, then its typed fields or parameters:
  forge generate component "UserCard with name: string, email?: string, age: number"
  forge generate function "formatPrice(amount: number, currency: string): string"
  forge generate api "an api for blog posts with title: string, published: boolean"
  forge generate schema "Order with id: string, items: string[], total: number" -o src/order.ts
Without -o the code goes to stdout (details on stderr), so it can be piped. When no recipe of the
catalogue does what the description asks, the code is a typed skeleton and stderr says so and why
("Skeleton, not an implementation: …"). The grammar and the catalogue: docs/code-generator.md.`,
    )
    .action(
      (
        kind: string,
        description: string[],
        opts: Omit<GenerateOptions, 'kind' | 'description'>,
        command: Command,
      ) => invoke(command, run, { ...opts, kind, description }),
    );
}
