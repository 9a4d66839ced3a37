import { describe, expect, it } from 'vitest';
import type { Run } from './command.ts';
import { createProgram } from './cli.ts';
import { READ_RUNS } from './read.ts';
import { matchReadCommand } from './read-path.ts';

/** What commander makes of `args`: the run it would call, its options and the global options. */
async function viaCommander(args: string[]) {
  let called: { run: Run<never>; opts: unknown; globals: Record<string, unknown> } | undefined;
  const program = createProgram(undefined, async (command, run, opts) => {
    const { url, token, startDaemon, color } = command.optsWithGlobals();
    called = { run: run as Run<never>, opts, globals: { url, token, startDaemon, color } };
  });
  program.configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  await program.parseAsync(['node', 'forge', ...args]);
  return called;
}

describe('the read path', () => {
  it.each([
    ['builds'],
    ['builds', '--json'],
    ['builds', '-p', 'site', '--json'],
    ['builds', '--project', 'my app'],
    ['--no-color', 'builds'],
    ['builds', '--json', '--no-color', '--url', 'http://h:1', '--token', 't'],
    ['--url', 'http://h:1', '--start-daemon', 'status', '--json'],
    ['status'],
    ['bots', '--json'],
    ['workers'],
    ['workers', '--json', '--url', 'http://h:1'],
    ['logs'],
    ['logs', 'b1-x'],
    ['logs', '--json', 'b1-x'],
    ['plan', 'site'],
    ['plan', 'app.zip', '--json'],
    ['plan', ''],
    ['settings', 'get'],
    ['settings', 'get', 'debugMode', '--json'],
    ['config', 'print'],
    ['config', 'print', '--json'],
    ['config', 'print', '--local'],
    ['config', 'print', '--local', '--json'],
    ['daemon', 'status'],
    ['daemon', 'status', '--json', '--token', 'secret'],
  ])('%j runs as commander would run it', async (...args) => {
    const read = matchReadCommand(args);
    expect(read).toBeDefined();
    const commander = await viaCommander(args);
    expect(READ_RUNS[read!.command]).toBe(commander?.run);
    expect(read!.opts).toEqual(commander?.opts);
    expect(read!.globals).toEqual(commander?.globals);
  });

  it.each([
    [[]],
    [['--version']],
    [['builds', '--help']],
    [['-h']],
    [['builds', '-n', '5']],
    [['builds', '--limit=5']],
    [['builds', '--project']],
    [['builds', '-p', 'a', '--project', 'b']],
    [['builds', '--json', '--json']],
    [['builds', 'extra']],
    [['builds', '--nope']],
    [['builds', '-pj']],
    [['--url=http://h:1', 'builds']],
    [['--url', '--token', 'builds']],
    [['status', '--watch']],
    [['workers', 'extra']],
    [['worker', '--queue', 'redis://r:6379']],
    [['logs', '-f']],
    [['logs', 'a', 'b']],
    [['plan']],
    [['plan', '--', '-x.zip']],
    [['settings']],
    [['settings', 'set', 'debugMode', 'true']],
    [['daemon', 'start']],
    [['upload', 'x.zip']],
    [['--json', 'builds']],
  ])('leaves %j to commander', (args) => {
    expect(matchReadCommand(args)).toBeUndefined();
  });
});
