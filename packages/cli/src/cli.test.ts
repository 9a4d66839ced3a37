import { describe, expect, it } from 'vitest';
import { commandName, createProgram } from './cli.ts';

describe('commandName', () => {
  it.each([
    [['builds', '--json'], 'builds'],
    [['--url', 'http://h:1', '--token', 't', 'upload', 'x.zip'], 'upload'],
    [['--no-color', '--start-daemon', 'status'], 'status'],
    [['--url=http://h:1', 'logs'], 'logs'],
    [['--', 'plan'], 'plan'],
    [['--help'], undefined],
    [[], undefined],
  ])('%j → %s', (args, name) => {
    expect(commandName(args)).toBe(name);
  });
});

describe('createProgram(only)', () => {
  /** The command's options as commander parses `args`, with the given program. */
  async function parse(only: string | undefined, args: string[]) {
    let seen: unknown;
    const program = createProgram(only, async (command, _run, opts) => {
      seen = { opts, globals: command.optsWithGlobals() };
    });
    program.configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
    await program.parseAsync(['node', 'forge', ...args]);
    return seen;
  }

  it.each([
    [['upload', 'x.zip', '--wait', '--json', '--timeout', '90s', '--no-cache']],
    [['--url', 'http://h:1', 'build', 'site', '--wait']],
    [['daemon', 'start', '--port', '0']],
    [['settings', 'set', 'debugMode', 'true']],
    // `forge worker --url`: the global option, given after the command.
    [['worker', '--queue', 'redis://r:6379', '--url', 'http://h:1', '--name', 'ci-2', '--concurrency', '3']],
  ])('builds only the command run, which parses %j as the whole program does', async (args) => {
    const name = commandName(args);
    const program = createProgram(name);
    expect(program.commands.map((c) => c.name())).toEqual([name]);
    expect(await parse(name, args)).toEqual(await parse(undefined, args));
  });

  it('builds every command for completion, which describes them all', () => {
    expect(createProgram('completion').commands.length).toBe(createProgram().commands.length);
  });
});
