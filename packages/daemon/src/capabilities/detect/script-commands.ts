/**
 * What a package.json script runs, read as text (never run): the commands of `a && b`, `a; b`, `a | b`,
 * the commands `concurrently`, `npm-run-all`, `run-s` and `run-p` start, and the scripts that
 * `npm run x`, `yarn x`, `pnpm x` and `bun run x` refer to, followed a few levels deep. Environment
 * assignments and runners (`cross-env`, `npx`, `pnpm exec`, `dotenv --`) are peeled off, so each command
 * starts with the binary that does the work.
 */

/** One command a script runs. */
export interface ScriptCommand {
  /** The binary, as its name (`webpack`, not `./node_modules/.bin/webpack`). */
  bin: string;
  /** Its arguments, unquoted. */
  args: string[];
  /** The command as text, for rules: "webpack serve --open". */
  text: string;
  /** The script it was found in, when it came through a reference (`npm run dev` → "dev"). */
  script: string | null;
}

/** References are followed this deep: `start` → `dev` → `dev:web` is as far as real projects go. */
const MAX_DEPTH = 4;

/** Split a command line into words, honouring quotes (nothing is expanded). */
function words(text: string): string[] {
  const out: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
    } else if (ch === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) out.push(word);
  return out;
}

/** Split a script at `&&`, `||`, `;`, `|` and `&` outside quotes (the shell's command separators). */
export function scriptSegments(script: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < script.length; i++) {
    const ch = script[i]!;
    if (quote) {
      // Quotes stay in the text (the word splitter takes them off); only "…" knows backslash escapes.
      if (ch === '\\' && quote === '"' && i + 1 < script.length) {
        current += ch + script[++i];
        continue;
      }
      if (ch === quote) quote = null;
      current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
    } else if (ch === ';' || ch === '|' || ch === '&') {
      out.push(current);
      current = '';
      if ((ch === '|' || ch === '&') && script[i + 1] === ch) i++;
    } else {
      current += ch;
    }
  }
  out.push(current);
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Peel environment assignments and command runners off the front of a command's words. */
function peel(all: string[]): string[] {
  let w = all;
  for (;;) {
    const first = w[0];
    if (first === undefined) return w;
    if (ENV_ASSIGNMENT.test(first)) {
      w = w.slice(1);
    } else if (first === 'cross-env' || first === 'cross-env-shell' || first === 'env') {
      w = w.slice(1);
      while (w[0]?.startsWith('-')) w = w.slice(1);
    } else if (first === 'dotenv' || first === 'dotenv-cli' || first === 'env-cmd') {
      const dashes = w.indexOf('--');
      w = dashes === -1 ? [] : w.slice(dashes + 1);
    } else if (first === 'npx' || first === 'pnpx' || first === 'bunx') {
      w = w.slice(1);
      while (w[0]?.startsWith('-')) w = w.slice(w[0] === '--package' || w[0] === '-p' ? 2 : 1);
    } else if (
      (first === 'npm' && w[1] === 'exec') ||
      (first === 'pnpm' && (w[1] === 'exec' || w[1] === 'dlx')) ||
      (first === 'yarn' && (w[1] === 'exec' || w[1] === 'dlx')) ||
      (first === 'bun' && w[1] === 'x')
    ) {
      w = w.slice(2);
      while (w[0]?.startsWith('-')) {
        const flag = w[0];
        w = w.slice(1);
        if (flag === '--') break;
      }
    } else if (first === 'time' || first === 'nice') {
      w = w.slice(1);
    } else {
      return [first.replace(/^(?:\.\/)?node_modules\/\.bin\//, ''), ...w.slice(1)];
    }
  }
}

/** Package-manager commands that are not script names (`yarn install`, `pnpm build`? no: that one is). */
const PM_COMMANDS = new Set([
  'install',
  'i',
  'add',
  'remove',
  'ci',
  'exec',
  'dlx',
  'x',
  'test',
  'start',
  'run',
  'run-script',
  'create',
  'init',
  'link',
  'publish',
  'version',
  'why',
  'list',
  'ls',
  'workspace',
  'workspaces',
]);

/**
 * Package-manager flags that run the script in other packages or another folder (`npm run build
 * --workspaces`, `pnpm -r build`, `pnpm --filter web build`, `yarn --cwd app build`): such a command is
 * not a reference to this package.json's own script.
 */
export const OTHER_PACKAGE_FLAGS = new Set([
  '--workspaces',
  '-ws',
  '--workspace',
  '-w',
  '--prefix',
  '-r',
  '--recursive',
  '--filter',
  '-F',
  '--dir',
  '-C',
  '--cwd',
]);

const otherPackageFlag = (word: string): boolean =>
  OTHER_PACKAGE_FLAGS.has(word) || OTHER_PACKAGE_FLAGS.has(word.replace(/=.*$/, ''));

/** The script a package-manager command runs (`npm run dev`, `yarn dev`, `npm start`), or null. */
function scriptReference(w: string[], scripts: Record<string, string>): string | null {
  const [pm, cmd, name] = w;
  if (pm !== 'npm' && pm !== 'yarn' && pm !== 'pnpm' && pm !== 'bun') return null;
  if (cmd === undefined || w.some(otherPackageFlag)) return null;
  if ((cmd === 'run' || cmd === 'run-script') && name !== undefined) return name;
  if (cmd === 'start' || cmd === 'test') return pm === 'bun' && cmd === 'test' ? null : cmd;
  // `yarn dev`, `pnpm dev`: a script when one has that name.
  if (pm !== 'npm' && !PM_COMMANDS.has(cmd) && scripts[cmd] !== undefined) return cmd;
  return null;
}

/** Script names `npm-run-all`, `run-s` and `run-p` are given (with their `build:*` patterns). */
function runAllTargets(w: string[], scripts: Record<string, string>): string[] | null {
  if (!['npm-run-all', 'run-s', 'run-p', 'npm-run-all2'].includes(w[0] ?? '')) return null;
  const names: string[] = [];
  for (const arg of w.slice(1)) {
    if (arg.startsWith('-')) continue;
    if (arg.includes('*')) {
      const pattern = new RegExp(`^${arg.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^:]*')}$`);
      names.push(...Object.keys(scripts).filter((name) => pattern.test(name)));
    } else {
      names.push(arg);
    }
  }
  return names;
}

/** Every command `script` runs, in order, following references to other scripts. */
export function scriptCommands(
  script: string,
  scripts: Record<string, string>,
  via: string | null = null,
  depth = 0,
  seen: ReadonlySet<string> = new Set(),
): ScriptCommand[] {
  const out: ScriptCommand[] = [];
  const follow = (name: string): void => {
    const body = scripts[name];
    if (body === undefined || seen.has(name) || depth >= MAX_DEPTH) return;
    out.push(...scriptCommands(body, scripts, name, depth + 1, new Set([...seen, name])));
  };
  // After `cd elsewhere`, `npm run x` is another package's script, not one of these.
  let moved = false;
  for (const segment of scriptSegments(script)) {
    const w = peel(words(segment));
    const bin = w[0];
    if (bin === undefined) continue;
    if (bin === 'cd' || bin === 'pushd') moved = true;
    const reference = moved ? null : scriptReference(w, scripts);
    if (reference !== null) {
      follow(reference);
      continue;
    }
    const targets = moved ? null : runAllTargets(w, scripts);
    if (targets) {
      targets.forEach(follow);
      continue;
    }
    if (bin === 'concurrently') {
      for (const arg of w.slice(1)) {
        if (arg.startsWith('-')) continue;
        // `concurrently "npm:dev" "npm:api"` names scripts; other arguments are commands.
        const named = /^(?:npm|yarn|pnpm|bun):(.+)$/.exec(arg);
        if (named) follow(named[1]!);
        else out.push(...scriptCommands(arg, scripts, via, depth + 1, seen));
      }
      continue;
    }
    out.push({ bin, args: w.slice(1), text: w.join(' '), script: via });
  }
  return out;
}

/** The commands of the script called `name` (none when there is no such script). */
export function commandsOfScript(name: string, scripts: Record<string, string>): ScriptCommand[] {
  const body = scripts[name];
  return body === undefined ? [] : scriptCommands(body, scripts, null, 0, new Set([name]));
}
