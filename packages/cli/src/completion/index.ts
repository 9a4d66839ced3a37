import type { Command } from 'commander';
import { bashScript } from './bash.ts';
import { fishScript } from './fish.ts';
import { describeProgram } from './spec.ts';
import { zshScript } from './zsh.ts';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The completion script of `shell` for this program. */
export function completionScript(shell: Shell, program: Command): string {
  const spec = describeProgram(program);
  switch (shell) {
    case 'bash':
      return bashScript(spec);
    case 'zsh':
      return zshScript(spec);
    case 'fish':
      return fishScript(spec);
  }
}
