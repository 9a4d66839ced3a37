import {
  formatCommand,
  TEST_REPORT_PLACEHOLDER,
  type PackageManager,
  type TestResultsPlan,
} from '@forge/shared';
import type { Argv } from './command-line.ts';
import { scriptSegments } from './script-commands.ts';
import { commandWords, matchRunner } from './test-command.ts';

/**
 * How TestBot reads the project's own test cases: the runner's machine-readable reporter is added
 * beside its usual one, writing to a file TestBot names when the tests run ({report}), and never
 * replacing what the script asked for. Only where adding it is safe:
 *
 * - arguments go to a runner that is the script's last command (or the command Forge runs itself),
 *   since only there do arguments given to the script reach it;
 * - Node's test runner takes no arguments after its files, so it gets its reporters through
 *   NODE_OPTIONS, which reach every `node --test` of the script;
 * - a script that already names a reporter or an output file of the same kind keeps its own, and
 *   its cases are not read (the tail of the output stands in for them).
 */

const REPORT = TEST_REPORT_PLACEHOLDER;

/** An argument names this option (`--reporter=x`, `--reporter x`, `-R x`). */
const sets = (args: readonly string[], ...names: string[]): boolean =>
  args.some((arg) =>
    names.some((name) => arg === name || arg.startsWith(`${name}=`) || arg.startsWith(`${name}.`)),
  );

interface Found {
  plan: Omit<TestResultsPlan, 'args'> & { args: string[] };
  rule: string;
}

/** The reporter to add to one command's words, when it is a runner Forge reads and adding it is safe. */
function reporterFor(words: readonly string[]): Found | null | 'own' {
  const match = matchRunner(words);
  const [bin, ...args] = words;
  if (match?.runner.id === 'vitest') {
    if (sets(match.args, '--outputFile')) return 'own';
    // The script's own reporters stay; without any, Vitest's default one is kept beside JUnit.
    const keep = sets(match.args, '--reporter') ? [] : ['--reporter=default'];
    return {
      plan: {
        runner: 'vitest',
        format: 'junit',
        args: [...keep, '--reporter=junit', `--outputFile.junit=${REPORT}`],
        env: {},
      },
      rule: `Vitest's JUnit reporter beside ${keep.length ? 'its default one' : "the script's own"}`,
    };
  }
  if (match?.runner.id === 'jest' || match?.runner.id === 'react-scripts') {
    if (sets(match.args, '--json', '--outputFile')) return 'own';
    return {
      plan: { runner: 'jest', format: 'jest-json', args: ['--json', `--outputFile=${REPORT}`], env: {} },
      rule: "Jest's JSON results written to a file (its console report stays as it is)",
    };
  }
  if (bin === 'mocha' || bin === '_mocha') {
    if (sets(args, '--reporter', '-R', '--reporter-option', '--reporter-options', '-O')) return 'own';
    return {
      plan: {
        runner: 'mocha',
        format: 'junit',
        args: ['--reporter=xunit', `--reporter-options=output=${REPORT}`],
        env: {},
      },
      rule: "Mocha's xunit reporter (Mocha runs one reporter: the cases read from it are logged instead of its console report)",
    };
  }
  return null;
}

/** `node … --test …`: Node's test runner, with its own reporter when the command names one. */
function nodeTest(words: readonly string[]): 'runner' | 'own' | null {
  if (words[0] !== 'node') return null;
  const options: string[] = [];
  for (const word of words.slice(1)) {
    if (!word.startsWith('-')) break;
    options.push(word);
  }
  if (!options.includes('--test')) return null;
  return sets(words, '--test-reporter', '--test-reporter-destination') ? 'own' : 'runner';
}

/** Node's reporters through NODE_OPTIONS: its spec report on stdout as usual, JUnit to the report file. */
const NODE_PLAN: Found = {
  plan: {
    runner: 'node',
    format: 'junit',
    args: [],
    env: {
      NODE_OPTIONS: `--test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=${REPORT}`,
    },
  },
  rule: "Node's JUnit test reporter beside its spec one, through NODE_OPTIONS (node --test takes no arguments after its files)",
};

/** Arguments for the end of `argv`: npm passes a script's arguments only after `--` (`npm exec` has it already). */
function appended(pm: PackageManager | null, argv: Argv, args: string[], direct: boolean): string[] {
  if (direct || pm !== 'npm' || argv.includes('--')) return args;
  return ['--', ...args];
}

export interface TestResultsDecision {
  plan: TestResultsPlan | null;
  /** The decision's value and rule, for the plan's log. */
  value: string;
  rule: string;
}

/**
 * How the cases of `argv` (the plan's test command) can be read. `script`: the "test" script it
 * runs, or null when `argv` is a command of its own (the forge config's `test`), run as it is.
 */
export function planTestResults(
  pm: PackageManager | null,
  argv: Argv,
  script: string | null,
): TestResultsDecision {
  const none = (rule: string): TestResultsDecision => ({ plan: null, value: 'output tail', rule });
  const commands = (script === null ? [formatCommand(argv)] : scriptSegments(script))
    .map((segment) => (script === null ? { words: argv } : commandWords(segment)))
    .filter((c): c is { words: string[] } => c !== null);
  const own = 'so the report it writes is its own; the output tail stands for the cases';

  // Node's runner anywhere in the script: NODE_OPTIONS reaches it wherever it is.
  const nodes = commands.map((c) => nodeTest(c.words));
  if (nodes.includes('own')) return none(`the script names its own node --test reporter, ${own}`);
  if (nodes.includes('runner')) {
    return { plan: NODE_PLAN.plan, value: 'junit (node --test)', rule: NODE_PLAN.rule };
  }

  const last = commands.at(-1);
  const found = last ? reporterFor(last.words) : null;
  if (found === 'own') return none(`the test command names its own reporter output, ${own}`);
  if (found === null) {
    const earlier = commands.slice(0, -1).some((c) => {
      const r = reporterFor(c.words);
      return r !== null && r !== 'own';
    });
    return none(
      earlier
        ? 'the runner is not the last command of the script, so no reporter can be given to it; the output tail stands for the cases'
        : 'no test runner Forge reads a report from (Vitest, Jest, node --test, Mocha); the output tail stands for the cases',
    );
  }
  const plan: TestResultsPlan = { ...found.plan, args: appended(pm, argv, found.plan.args, script === null) };
  return {
    plan,
    value: `${plan.format} (${plan.runner})`,
    rule: `${found.rule}: ${formatCommand(plan.args)}, read into the build's test cases`,
  };
}
