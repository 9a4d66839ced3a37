import { formatCommand, type PackageManager } from '@forge/shared';
import { childObject, scanObjects, stringProp } from './config-text.ts';
import { execBin, runScript, splitCommand, type Argv } from './command-line.ts';
import type { FrameworkContext } from './framework-context.ts';
import { PACKAGE_JSON, type PackageInfo } from './package-json.ts';
import { scriptSegments } from './script-commands.ts';

/**
 * The test command, run the way CI runs it (docs/pipeline.md#tests): a test runner that watches for changes
 * outside CI (Karma via `ng test`, `karma start`, Vitest, react-scripts) or waits for a browser would
 * hold TestBot until its timeout. So the runner the "test" script starts is recognised and given its
 * own run-once flags; the plan says which and why. TestBot adds `CI=true` and, for browser runners,
 * `CHROME_BIN` (engine/steps/test.ts), and stops a runner that waits anyway.
 */

/** npm init's placeholder: a test script that only fails. */
const NPM_PLACEHOLDER_TEST = /^\s*echo\s+\\?["']?Error: no test specified\\?["']?\s*&&\s*exit 1\s*$/;

/** A flag a runner is given to run once, unless the script already sets that option itself. */
interface OnceFlag {
  arg: string;
  /** The script's own arguments that set the same option (then the script's choice stands). */
  setBy: RegExp;
}

export type RunnerId = 'angular-karma' | 'angular' | 'karma' | 'vitest' | 'jest' | 'react-scripts';

/** A test runner Forge knows how to run once. */
export interface TestRunner {
  id: RunnerId;
  /** For rules: "Karma via ng test". */
  name: string;
  /** What the flags do, for rules. */
  why: string;
  /** Flags appended to the script's own arguments (through the package manager). */
  once: readonly OnceFlag[];
  /** The runner's own run-once form when Forge runs the binary directly (default: the args + `once`). */
  direct?: (args: readonly string[], flags: readonly string[]) => string[];
  /** Runs the tests in Chrome: TestBot gives it CHROME_BIN (the machine's Chromium). */
  browser: boolean;
}

const WATCH = /^--(?:no-)?watch(?:=|$)/;
const WATCH_ALL = /^--(?:no-)?watch(?:All)?(?:=|$)/;

/** `ng test` with Angular's Karma builder (the default up to Angular 20). */
const ANGULAR_KARMA: TestRunner = {
  id: 'angular-karma',
  name: 'Karma via ng test',
  why: 'so it runs once in headless Chromium and ends instead of watching for changes',
  once: [
    { arg: '--watch=false', setBy: WATCH },
    { arg: '--browsers=ChromeHeadless', setBy: /^--browsers(?:=|$)/ },
  ],
  browser: true,
};

/** `ng test` with another builder (unit-test with Vitest, jest, web-test-runner): only watch is ours to turn off. */
const ANGULAR_OTHER: TestRunner = {
  id: 'angular',
  name: 'ng test',
  why: 'so it runs once and ends instead of watching for changes',
  once: [{ arg: '--watch=false', setBy: WATCH }],
  browser: false,
};

const KARMA: TestRunner = {
  id: 'karma',
  name: 'Karma',
  why: 'so it runs once and ends instead of waiting for changes',
  once: [{ arg: '--single-run', setBy: /^--(?:no-)?single-run(?:=|$)/ }],
  browser: true,
};

const VITEST: TestRunner = {
  id: 'vitest',
  name: 'Vitest',
  why: 'so it runs once instead of watching for changes (vitest watches outside CI)',
  // `--run` is the flag form of `vitest run`; run directly, the command is `vitest run` itself.
  once: [{ arg: '--run', setBy: /^(?:--(?:run|watch|no-watch)(?:=|$)|-w$)/ }],
  direct: (args) => ['run', ...args],
  browser: false,
};

const JEST: TestRunner = {
  id: 'jest',
  name: 'Jest',
  why: 'so it runs once, as in CI, and never enters watch mode',
  once: [
    { arg: '--ci', setBy: /^--(?:no-)?ci(?:=|$)/ },
    { arg: '--watchAll=false', setBy: WATCH_ALL },
  ],
  browser: false,
};

const REACT_SCRIPTS: TestRunner = {
  id: 'react-scripts',
  name: 'Jest via react-scripts test',
  why: 'so it runs once instead of watching for changes',
  once: [{ arg: '--watchAll=false', setBy: WATCH_ALL }],
  browser: false,
};

/** Known Angular test builders (angular.json) and whether they run in Karma. */
const KARMA_BUILDER = /:karma$/;

/** How a command of the script runs tests, as far as its words tell. */
export interface RunnerMatch {
  runner: TestRunner;
  /** The binary as written (`ng`, `vitest`). */
  bin: string;
  /** The arguments after the binary. */
  args: string[];
  /** The command already runs once (`vitest run`): nothing to add. */
  alreadyOnce: string | null;
}

/** Which runner `bin args…` is, or null for anything else (mocha, node --test, tap… run as they are). */
export function matchRunner(
  words: readonly string[],
  angularBuilder: string | null = null,
): RunnerMatch | null {
  const [bin, ...args] = words;
  if (!bin) return null;
  const sub = args[0];
  const match = (runner: TestRunner, rest: string[], alreadyOnce: string | null = null): RunnerMatch => ({
    runner,
    bin,
    args: rest,
    alreadyOnce,
  });
  switch (bin) {
    case 'ng':
      if (sub !== 'test' && sub !== 't') return null;
      return match(
        angularBuilder === null || KARMA_BUILDER.test(angularBuilder) ? ANGULAR_KARMA : ANGULAR_OTHER,
        args,
      );
    case 'karma':
      return sub === 'start' ? match(KARMA, args) : null;
    case 'vitest':
      if (sub === 'run') return match(VITEST, args.slice(1), 'vitest run runs once');
      if (sub === 'bench' || sub === 'list' || sub === 'init') return null;
      // `vitest watch` / `vitest dev` ask for watch mode outright: the script's choice, left as it is.
      if (sub === 'watch' || sub === 'dev') return match(VITEST, args, null);
      return match(VITEST, args);
    case 'jest':
      return match(JEST, args);
    case 'react-scripts':
    case 'craco':
    case 'react-app-rewired':
      return sub === 'test' ? match(REACT_SCRIPTS, args) : null;
    default:
      return null;
  }
}

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The command's words without environment assignments and launchers (`cross-env`, `npx`); null if unreadable. */
export function commandWords(segment: string): { words: string[]; peeled: boolean } | null {
  let words: string[];
  try {
    words = splitCommand(segment);
  } catch {
    return null;
  }
  let peeled = false;
  for (;;) {
    const first = words[0];
    if (first === undefined) return null;
    if (ENV_ASSIGNMENT.test(first)) {
      words = words.slice(1);
    } else if (first === 'cross-env' || first === 'env') {
      words = words.slice(1);
    } else if (first === 'npx' || first === 'pnpx' || first === 'bunx') {
      words = words.slice(1);
      while (words[0]?.startsWith('-')) words = words.slice(1);
    } else {
      const bin = first.replace(/^(?:\.\/)?node_modules\/\.bin\//, '');
      return { words: [bin, ...words.slice(1)], peeled: peeled || bin !== first };
    }
    peeled = true;
  }
}

/** `npm run test -- a b` (npm reads flags before `--` as its own); pnpm, yarn and bun pass them on as they are. */
export function runScriptWithArgs(pm: PackageManager, script: string, args: readonly string[]): Argv {
  if (args.length === 0) return runScript(pm, script);
  return pm === 'npm' ? [...runScript(pm, script), '--', ...args] : [...runScript(pm, script), ...args];
}

/** The test command and the rule that explains it. */
export interface TestCommand {
  argv: Argv;
  rule: string;
  /** The runner the script starts, when Forge knows it. */
  runner: TestRunner | null;
}

const BROWSER_NOTE = "CHROME_BIN: the machine's Chromium, found when the tests run";

/**
 * How to run the "test" script once, as CI does. `angularBuilder`: the builder of the test target in
 * angular.json, when there is one (Karma needs a browser; the unit-test builder does not).
 */
export function ciTestCommand(
  pm: PackageManager,
  scripts: Readonly<Record<string, string>>,
  angularBuilder: string | null = null,
): TestCommand | null {
  const script = scripts.test;
  if (script === undefined) return null;
  const given = `"test" script: ${script}`;
  const segments = scriptSegments(script);
  const commands = segments.map((segment) => {
    const words = commandWords(segment);
    return words ? { ...words, match: matchRunner(words.words, angularBuilder) } : null;
  });
  const found = commands.findLastIndex((c) => c?.match);
  if (found === -1) return { argv: runScript(pm, 'test'), rule: given, runner: null };

  const { match, peeled } = commands[found]!;
  const { runner, bin, args, alreadyOnce } = match!;
  const builder =
    runner.id.startsWith('angular') && angularBuilder ? ` (angular.json: ${angularBuilder})` : '';
  const browser = runner.browser ? `; ${BROWSER_NOTE}` : '';
  const asIs = (why: string): TestCommand => ({
    argv: runScript(pm, 'test'),
    rule: `${given}; runs ${runner.name}${builder}, ${why}${browser}`,
    runner,
  });
  if (alreadyOnce) return asIs(`which already runs once (${alreadyOnce})`);
  if (runner === VITEST && (args[0] === 'watch' || args[0] === 'dev')) {
    return asIs(`in watch mode as the script asks; TestBot stops it if it waits for changes`);
  }
  const flags = runner.once.filter((f) => !args.some((a) => f.setBy.test(a))).map((f) => f.arg);
  const kept = runner.once
    .filter((f) => args.some((a) => f.setBy.test(a)))
    .map((f) => f.arg.replace(/=.*$/, ''));
  const keptNote = kept.length ? `; the script sets ${kept.join(' and ')} itself, and that stands` : '';
  if (flags.length === 0) {
    return asIs(`with its own flags${keptNote}; TestBot stops it if it waits for changes`);
  }
  if (found !== segments.length - 1) {
    return asIs(
      `but not as its last command, so Forge cannot pass ${flags.join(' ')} to it; ` +
        'CI=true, and TestBot stops it if it waits for changes',
    );
  }
  const runOnce = `given ${flags.join(' ')} ${runner.why}${keptNote}${browser}`;
  // Exactly one runner invocation and no pre/post hooks: run the runner itself, in its own run-once form.
  const single = segments.length === 1 && !peeled && !bin.includes('/');
  if (single && scripts.pretest === undefined && scripts.posttest === undefined) {
    const direct = runner.direct ? runner.direct(args, flags) : [...args, ...flags];
    return {
      argv: execBin(pm, bin, direct),
      rule:
        `"test" script is exactly ${script}: Forge runs ${formatCommand([bin, ...direct])} itself, ` +
        `${runner.name}${builder} ${runOnce}`,
      runner,
    };
  }
  return {
    argv: runScriptWithArgs(pm, 'test', flags),
    rule: `${given}; runs ${runner.name}${builder}, ${runOnce}`,
    runner,
  };
}

/** The builder of the first test target in angular.json (read as JSON with comments), or null. */
async function angularTestBuilder(ctx: FrameworkContext): Promise<string | null> {
  const content = await ctx.files.read('angular.json');
  if (!content) return null;
  const projects = childObject(scanObjects(content.text)[0], 'projects');
  for (const name of projects?.props.keys() ?? []) {
    const project = childObject(projects, name);
    const targets = childObject(project, 'architect') ?? childObject(project, 'targets');
    const builder = stringProp(childObject(targets, 'test'), 'builder');
    if (builder) return builder;
  }
  return null;
}

/** The plan's test command (recorded with its evidence), or null when there are no tests to run. */
export async function detectTest(ctx: FrameworkContext, pkg: PackageInfo): Promise<Argv | null> {
  const script = pkg.scripts.test;
  if (script === undefined) {
    ctx.log.add('test', 'none', PACKAGE_JSON, 'no "test" script');
    return null;
  }
  if (NPM_PLACEHOLDER_TEST.test(script)) {
    ctx.log.add('test', 'none', PACKAGE_JSON, `the "test" script is npm's placeholder (${script})`);
    return null;
  }
  // Only `ng test` depends on angular.json: Karma needs a browser, the unit-test builder does not.
  const builder = /(?:^|[\s;&|])ng\s/.test(script) ? await angularTestBuilder(ctx) : null;
  const command = ciTestCommand(ctx.pm, pkg.scripts, builder)!;
  ctx.log.add('test', formatCommand(command.argv), PACKAGE_JSON, command.rule);
  return command.argv;
}
