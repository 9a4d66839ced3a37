import type { PackageManager } from '@forge/shared';

/** argv of a command; Forge never hands a command line to a shell. */
export type Argv = string[];

/** Characters that would mean something to a shell; without one they would silently become arguments. */
const SHELL_SYNTAX: Record<string, string> = {
  '|': 'pipes (|)',
  '&': 'chaining or background jobs (&, &&)',
  ';': 'command lists (;)',
  '<': 'redirection (<)',
  '>': 'redirection (>)',
  '(': 'subshells ( )',
  ')': 'subshells ( )',
  '`': 'command substitution (`)',
  $: 'variables and substitution ($)',
};

/**
 * Split a command string into argv the way a POSIX shell tokenises words (whitespace, '…', "…", \),
 * without a shell: nothing is expanded or run. Unquoted shell syntax is refused rather than passed on
 * as literal arguments, so `a && b` fails loudly here instead of confusingly at build time.
 */
export function splitCommand(input: string): Argv {
  const argv: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (/\s/.test(ch)) {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (ch === "'") {
      const end = input.indexOf("'", i + 1);
      if (end === -1) throw new Error('has an unterminated single quote');
      word += input.slice(i + 1, end);
      i = end + 1;
    } else if (ch === '"') {
      i++;
      for (;;) {
        if (i >= input.length) throw new Error('has an unterminated double quote');
        const c = input[i]!;
        if (c === '"') break;
        if (c === '\\' && i + 1 < input.length && '"\\$`'.includes(input[i + 1]!)) {
          word += input[i + 1];
          i += 2;
          continue;
        }
        if (c === '$' || c === '`') {
          throw new Error(`uses ${SHELL_SYNTAX[c]}, which needs a shell; Forge runs commands without one`);
        }
        word += c;
        i++;
      }
      i++;
    } else if (ch === '\\') {
      if (i + 1 >= input.length) throw new Error('ends with a lone backslash');
      word += input[i + 1];
      i += 2;
    } else if (SHELL_SYNTAX[ch]) {
      throw new Error(
        `uses ${SHELL_SYNTAX[ch]}, which needs a shell; Forge runs commands without one. ` +
          'Put the command in a package.json script and name that script instead',
      );
    } else {
      word += ch;
      i++;
    }
  }
  if (inWord) argv.push(word);
  if (argv.length === 0) throw new Error('is empty');
  return argv;
}

/** `npm run build`, `pnpm run build`, …: `run` always, since `bun test` is bun's own runner, not the script. */
export const runScript = (pm: PackageManager, script: string): Argv => [pm, 'run', script];

/** Run a binary installed in the project's node_modules, never fetching one from the registry. */
export function execBin(pm: PackageManager, bin: string, args: readonly string[] = []): Argv {
  switch (pm) {
    case 'npm':
      return ['npm', 'exec', '--no', '--', bin, ...args];
    case 'pnpm':
      return ['pnpm', 'exec', bin, ...args];
    case 'yarn':
      // Both Yarn 1 and Berry run a local binary through `yarn run <bin>`.
      return ['yarn', 'run', bin, ...args];
    case 'bun':
      return ['bun', 'run', bin, ...args];
  }
}
