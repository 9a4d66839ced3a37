import type { GlobalOptions } from './context.ts';

/**
 * The read path: the read commands in their plain forms, recognised without commander. Loading
 * commander and building the program costs ~5 ms, a tenth of what `forge builds --json` may take in
 * all; scripts and prompts run these commands often. Only forms whose parsing needs no judgement are
 * taken: known options, each at most once, values that do not start with "-", the right number of
 * operands. Anything else (help, an unknown or repeated option, `--opt=value`, `-n 20`, a missing
 * operand, `--`) is left to commander, which parses it as before. read-path.test.ts checks that what
 * is taken parses here exactly as commander parses it.
 */

/** The read commands this path runs; each names the module function commander's action would run. */
export type ReadCommand =
  | 'builds'
  | 'status'
  | 'bots'
  | 'workers'
  | 'logs'
  | 'plan'
  | 'settings get'
  | 'config print'
  | 'daemon status';

interface Grammar {
  /** Options without a value: the option, and the field commander sets to true. */
  flags: Record<string, string>;
  /** Options with a value: the option (long and short forms), and the field. */
  values: Record<string, string>;
  /** Operands in order: the field each fills, and whether commander requires it. */
  operands: Array<{ field: string; required: boolean }>;
}

const JSON_ONLY: Grammar = { flags: { '--json': 'json' }, values: {}, operands: [] };

const GRAMMARS: Record<ReadCommand, Grammar> = {
  builds: { flags: { '--json': 'json' }, values: { '-p': 'project', '--project': 'project' }, operands: [] },
  status: JSON_ONLY,
  bots: JSON_ONLY,
  workers: JSON_ONLY,
  logs: { ...JSON_ONLY, operands: [{ field: 'buildId', required: false }] },
  plan: { ...JSON_ONLY, operands: [{ field: 'target', required: true }] },
  'settings get': { ...JSON_ONLY, operands: [{ field: 'key', required: false }] },
  'config print': { flags: { '--json': 'json', '--local': 'local' }, values: {}, operands: [] },
  'daemon status': JSON_ONLY,
};

const GLOBAL_FLAGS: Record<string, [field: keyof GlobalOptions, value: boolean]> = {
  '--start-daemon': ['startDaemon', true],
  '--no-color': ['color', false],
};
const GLOBAL_VALUES: Record<string, keyof GlobalOptions> = { '--url': 'url', '--token': 'token' };

export interface ReadInvocation {
  command: ReadCommand;
  /** The options commander's action would receive (operands included, as the action adds them). */
  opts: Record<string, string | boolean | undefined>;
  /** The global options, as `command.optsWithGlobals()` gives them. */
  globals: GlobalOptions;
}

/** The read command `args` (argv after the script) asks for, or undefined to leave it to commander. */
export function matchReadCommand(args: readonly string[]): ReadInvocation | undefined {
  // Global options may come first; the command's words follow.
  const globals: GlobalOptions = { color: true };
  const seen = new Set<string>();
  let i = 0;
  const takeGlobal = (): boolean | undefined => {
    const arg = args[i]!;
    if (arg in GLOBAL_FLAGS) {
      if (seen.has(arg)) return undefined;
      seen.add(arg);
      const [field, value] = GLOBAL_FLAGS[arg]!;
      (globals as Record<string, unknown>)[field] = value;
      i += 1;
      return true;
    }
    if (arg in GLOBAL_VALUES) {
      const value = args[i + 1];
      if (seen.has(arg) || value === undefined || value.startsWith('-')) return undefined;
      seen.add(arg);
      (globals as Record<string, unknown>)[GLOBAL_VALUES[arg]!] = value;
      i += 2;
      return true;
    }
    return false;
  };

  while (i < args.length && args[i]!.startsWith('-')) if (takeGlobal() !== true) return undefined;
  const first = args[i];
  const two = `${first} ${args[i + 1]}`;
  const command = (two in GRAMMARS ? two : first && first in GRAMMARS ? first : undefined) as
    ReadCommand | undefined;
  if (!command) return undefined;
  i += command.split(' ').length;

  const grammar = GRAMMARS[command];
  const opts: ReadInvocation['opts'] = {};
  const operands: string[] = [];
  while (i < args.length) {
    const arg = args[i]!;
    if (!arg.startsWith('-')) {
      operands.push(arg);
      i += 1;
      continue;
    }
    const global = takeGlobal();
    if (global === true) continue;
    if (global === undefined || seen.has(arg)) return undefined;
    seen.add(arg);
    if (arg in grammar.flags) {
      opts[grammar.flags[arg]!] = true;
      i += 1;
    } else if (arg in grammar.values) {
      const value = args[i + 1];
      const field = grammar.values[arg]!;
      // -p and --project are one option: given twice under two names is a repeat too.
      if (value === undefined || value.startsWith('-') || field in opts) return undefined;
      opts[field] = value;
      i += 2;
    } else {
      return undefined;
    }
  }
  if (operands.length > grammar.operands.length) return undefined;
  for (const [n, operand] of grammar.operands.entries()) {
    if (operand.required && operands[n] === undefined) return undefined;
    opts[operand.field] = operands[n];
  }
  return { command, opts, globals };
}
