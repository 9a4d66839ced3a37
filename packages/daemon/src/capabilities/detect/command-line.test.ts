import { describe, expect, it } from 'vitest';
import { formatCommand } from '@forge/shared';
import { execBin, splitCommand } from './command-line.ts';

describe('splitCommand', () => {
  it.each<[string, string[]]>([
    ['npm run build', ['npm', 'run', 'build']],
    ['  node   server.js  ', ['node', 'server.js']],
    [`node -e 'console.log("a b")'`, ['node', '-e', 'console.log("a b")']],
    ['echo "a \\"quoted\\" word" \'\'', ['echo', 'a "quoted" word', '']],
    ['a\\ b c', ['a b', 'c']],
    ['vite build --outDir="my dist"', ['vite', 'build', '--outDir=my dist']],
    ["echo '$HOME && ls'", ['echo', '$HOME && ls']],
    ['tool --glob *.js', ['tool', '--glob', '*.js']],
  ])('%s', (input, argv) => {
    expect(splitCommand(input)).toEqual(argv);
  });

  it.each([
    ['npm run a && npm run b', /chaining/],
    ['cat a | grep b', /pipes/],
    ['a; b', /command lists/],
    ['node > out.txt', /redirection/],
    ['echo $(whoami)', /variables and substitution/],
    ['echo "$HOME"', /variables and substitution/],
    ['echo `id`', /command substitution/],
    ['echo "open', /unterminated double quote/],
    ['trailing \\', /lone backslash/],
    ['   ', /is empty/],
  ])('refuses %s', (input, message) => {
    expect(() => splitCommand(input)).toThrow(message);
  });
});

describe('formatCommand', () => {
  it('quotes only what needs quoting, and round-trips through splitCommand', () => {
    const argv = ['node', '-e', "console.log('hi there')", '--flag=a,b', ''];
    const text = formatCommand(argv);
    expect(text).toBe(`node -e 'console.log('\\''hi there'\\'')' --flag=a,b ''`);
    expect(splitCommand(text)).toEqual(argv);
  });
});

describe('execBin', () => {
  it('runs a local binary without fetching it', () => {
    expect(execBin('npm', 'vite', ['build'])).toEqual(['npm', 'exec', '--no', '--', 'vite', 'build']);
    expect(execBin('pnpm', 'vite', ['build'])).toEqual(['pnpm', 'exec', 'vite', 'build']);
    expect(execBin('yarn', 'vite', ['build'])).toEqual(['yarn', 'run', 'vite', 'build']);
    expect(execBin('bun', 'vite', ['build'])).toEqual(['bun', 'run', 'vite', 'build']);
  });
});
