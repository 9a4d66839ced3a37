import type { Argument, Command, Option } from 'commander';

/**
 * The command tree as shell completion needs it, read from the commander program itself, so the
 * scripts never drift from the commands: names, descriptions, options (and what their values are),
 * and what a command's argument completes to.
 */

/** What completes in a value position. */
export type ValueKind =
  | { kind: 'none' }
  /** Free text (a URL, a token, a name): nothing is offered. */
  | { kind: 'any' }
  | { kind: 'file' }
  /** .zip files (and folders to reach them). */
  | { kind: 'zip' }
  | { kind: 'choices'; values: string[] };

export interface OptionSpec {
  /** `-o`, `--output` (as typed). */
  flags: string[];
  short: string | undefined;
  long: string | undefined;
  description: string;
  value: ValueKind;
}

export interface CommandSpec {
  /** Words from the program to this command: [] for `forge`, ['daemon', 'start'] for `forge daemon start`. */
  path: string[];
  name: string;
  description: string;
  /** Its own options; the program's global options apply everywhere and are in `globals`. */
  options: OptionSpec[];
  commands: CommandSpec[];
  /** What the command's first argument completes to. */
  argument: ValueKind;
}

export interface ProgramSpec {
  root: CommandSpec;
  /** Root options valid after any command (--url, --token, --no-color, …; not --version). */
  globals: OptionSpec[];
}

/** Placeholder names of option values that are paths. */
const FILE_VALUES = new Set(['file', 'path', 'dir', 'report']);

function valueOf(option: Option): ValueKind {
  if (!option.required && !option.optional) return { kind: 'none' };
  if (option.argChoices) return { kind: 'choices', values: [...option.argChoices] };
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1]?.toLowerCase() ?? '';
  if (placeholder === 'zip') return { kind: 'zip' };
  if (FILE_VALUES.has(placeholder)) return { kind: 'file' };
  return { kind: 'any' };
}

function argumentOf(command: Command, parent: Command | undefined): ValueKind {
  const arg: Argument | undefined = command.registeredArguments[0];
  if (!arg) return { kind: 'none' };
  if (arg.argChoices) return { kind: 'choices', values: [...arg.argChoices] };
  const name = arg.name().toLowerCase();
  // `plan <zip|project>`: a ZIP is the thing worth completing.
  if (name === 'zip' || name.startsWith('zip|')) return { kind: 'zip' };
  // The implicit `help [command]`: the commands beside it.
  if (name === 'command' && parent) {
    return { kind: 'choices', values: visibleCommands(parent).map((c) => c.name()) };
  }
  return { kind: 'any' };
}

const visibleCommands = (command: Command) => command.createHelp().visibleCommands(command);

function optionSpec(option: Option): OptionSpec {
  return {
    flags: [option.short, option.long].filter((f): f is string => f !== undefined),
    short: option.short,
    long: option.long,
    description: option.description,
    value: valueOf(option),
  };
}

function commandSpec(command: Command, path: string[], parent: Command | undefined): CommandSpec {
  const help = command.createHelp();
  return {
    path,
    name: command.name(),
    description: command.description(),
    options: help.visibleOptions(command).map(optionSpec),
    commands: help.visibleCommands(command).map((sub) => commandSpec(sub, [...path, sub.name()], command)),
    argument: argumentOf(command, parent),
  };
}

export function describeProgram(program: Command): ProgramSpec {
  const root = commandSpec(program, [], undefined);
  // --help is every command's own; --version is the program's only.
  const globals = root.options.filter((o) => o.long !== '--help' && o.long !== '--version');
  return { root, globals };
}

/** Every command of the tree, the root first. */
export function allCommands(spec: ProgramSpec): CommandSpec[] {
  const out: CommandSpec[] = [];
  const visit = (c: CommandSpec) => {
    out.push(c);
    c.commands.forEach(visit);
  };
  visit(spec.root);
  return out;
}

/** The options accepted at a command: its own, then the global ones it does not redefine. */
export function optionsAt(spec: ProgramSpec, command: CommandSpec): OptionSpec[] {
  if (command.path.length === 0) return command.options;
  const own = new Set(command.options.flatMap((o) => o.flags));
  return [...command.options, ...spec.globals.filter((o) => !o.flags.some((f) => own.has(f)))];
}

/** One line of description for a completion menu. */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
