import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from './helpers.ts';

// `forge completion bash|zsh|fish`: scripts generated from the program, checked by the shells.

let sandbox: Sandbox;
const scripts: Record<string, string> = {};
beforeAll(async () => {
  sandbox = await Sandbox.create();
  for (const shell of ['bash', 'zsh', 'fish']) {
    const run = await sandbox.run(['completion', shell]);
    if (run.code !== 0) throw new Error(`forge completion ${shell}: ${run.stderr}`);
    scripts[shell] = run.stdout;
    writeFileSync(join(sandbox.cwd, `forge.${shell}`), run.stdout);
  }
  writeFileSync(join(sandbox.cwd, 'app.zip'), 'PK');
  writeFileSync(join(sandbox.cwd, 'notes.txt'), 'x');
});
afterAll(async () => {
  await sandbox.dispose();
});

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const COMMANDS = [
  'upload',
  'ci',
  'build',
  'builds',
  'logs',
  'cancel',
  'daemon',
  'completion',
  'tui',
  'fix',
  'scan',
  'chat',
  'brain',
  'memory',
  'generate',
  'worker',
  'workers',
];

describe('forge completion', () => {
  it.each([
    ['bash', ['--timeout', '--junit', '--no-color']],
    ['zsh', ['--timeout', '--junit', '--no-color']],
    ['fish', ['-l timeout', '-l junit', '-l no-color']],
  ])('%s names every command and option', (shell, options) => {
    for (const name of [...COMMANDS, 'start', 'stop', ...options]) expect(scripts[shell]).toContain(name);
  });

  it('an unknown shell is a usage error', async () => {
    const run = await sandbox.run(['completion', 'powershell']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Allowed choices are bash, zsh, fish');
  });

  it('bash accepts the script and completes commands, subcommands, options and .zip files', () => {
    expect(spawnSync('bash', ['-n', join(sandbox.cwd, 'forge.bash')]).status).toBe(0);
    const complete = (...words: string[]) => {
      const script = `source ./forge.bash
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_forge; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const res = spawnSync('bash', ['-c', script], { cwd: sandbox.cwd, encoding: 'utf8' });
      expect(res.stderr).toBe('');
      return res.stdout.split('\n').filter(Boolean).sort();
    };
    expect(complete('forge', 'up')).toEqual(['upload']);
    expect(complete('forge', 'daemon', 'st')).toEqual(['start', 'status', 'stop']);
    // Global options before the command, and option values, do not count as commands.
    expect(complete('forge', '--url', 'http://x', 'daemon', 'sto')).toEqual(['stop']);
    expect(complete('forge', 'ci', '--ti')).toEqual(['--timeout']);
    expect(complete('forge', 'upload', '--no-c')).toEqual(['--no-cache', '--no-color']);
    expect(complete('forge', 'upload', '')).toEqual(['app.zip']);
    expect(complete('forge', 'ci', '--junit', 'no')).toEqual(['notes.txt']);
    expect(complete('forge', 'completion', '')).toEqual(['bash', 'fish', 'zsh']);
    // The assistants' commands: subcommands, choices, options.
    expect(complete('forge', 'brain', 'set-')).toEqual(['set-code', 'set-greeting']);
    expect(complete('forge', 'memory', '')).toEqual(['help', 'ls', 'rm', 'set']);
    expect(complete('forge', 'generate', '')).toEqual(['api', 'component', 'function', 'schema']);
    expect(complete('forge', 'fix', '--u')).toEqual(['--undo', '--url']);
    expect(complete('forge', 'generate', 'component', 'x', '-o', 'no')).toEqual(['notes.txt']);
    // Scale-out: the worker and its options (--url is the global one).
    expect(complete('forge', 'work')).toEqual(['worker', 'workers']);
    expect(complete('forge', 'worker', '--')).toEqual(
      expect.arrayContaining(['--queue', '--name', '--concurrency', '--url', '--token']),
    );
  });

  it.skipIf(!has('zsh'))('zsh accepts the script', () => {
    const res = spawnSync('zsh', ['-n', join(sandbox.cwd, 'forge.zsh')], { encoding: 'utf8' });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(scripts.zsh).toMatch(/^#compdef forge$/m);
  });

  it.skipIf(!has('fish'))('fish accepts the script and completes commands with their descriptions', () => {
    const script = join(sandbox.cwd, 'forge.fish');
    expect(spawnSync('fish', ['-n', script]).status).toBe(0);
    const complete = (line: string) =>
      spawnSync('fish', ['-c', `source ${script}; complete -C '${line}'`], {
        cwd: sandbox.cwd,
        encoding: 'utf8',
      }).stdout;
    expect(complete('forge up')).toMatch(/^upload\tupload a project ZIP/m);
    expect(
      complete('forge daemon st')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]),
    ).toEqual(['start', 'status', 'stop']);
    expect(complete('forge ci --ju')).toMatch(/^--junit\t/m);
  });
});
