import { Argument, type Command } from 'commander';

/** The shells `forge completion` writes scripts for (kept here too: this module is on the --help path). */
const SHELL_NAMES = ['bash', 'zsh', 'fish'];

/**
 * `forge completion bash|zsh|fish`: the script on stdout, generated from this program's commands and
 * options. It needs neither the daemon nor @forge/shared, so it skips the command deps (shells may
 * run it at every start: `source <(forge completion bash)`).
 */
export async function run(program: Command, shell: 'bash' | 'zsh' | 'fish'): Promise<number> {
  const { completionScript } = await import('../completion/index.ts');
  process.stdout.write(completionScript(shell, program));
  return 0;
}

export function register(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELL_NAMES))
    .addHelpText(
      'after',
      `
Load it now:
  bash  source <(forge completion bash)
  zsh   source <(forge completion zsh)        (after compinit)
  fish  forge completion fish | source
Install it for good:
  bash  forge completion bash > ~/.local/share/bash-completion/completions/forge
  zsh   forge completion zsh > "\${fpath[1]}/_forge"
  fish  forge completion fish > ~/.config/fish/completions/forge.fish`,
    )
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      process.exitCode = await run(program, shell);
    });
}
