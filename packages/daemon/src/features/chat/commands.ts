/**
 * What a Forge chat line asks for (docs/product.md#http-calls: build, fix, status, "brain: question";
 * prefixes build: and brain:).
 */
export type ChatCommand =
  | { kind: 'build'; project: string | null }
  | { kind: 'fix'; project: string | null }
  | { kind: 'status' }
  | { kind: 'brain'; question: string }
  | { kind: 'help' };

const PREFIXED = /^(build|fix|brain)\s*:\s*(.*)$/is;

/** Read a chat line; anything not understood is `help` (the command list). */
export function parseChat(q: string): ChatCommand {
  const text = q.trim();
  const prefixed = PREFIXED.exec(text);
  if (prefixed) {
    const word = prefixed[1]!.toLowerCase();
    const rest = prefixed[2]!.trim();
    if (word === 'brain') return rest ? { kind: 'brain', question: rest } : { kind: 'help' };
    const project = rest.replace(/^["'`](.*)["'`]$/, '$1').trim() || null;
    return word === 'build' ? { kind: 'build', project } : { kind: 'fix', project };
  }
  switch (text.toLowerCase().replace(/[\s.!?]+$/, '')) {
    case 'build':
      return { kind: 'build', project: null };
    case 'fix':
      return { kind: 'fix', project: null };
    case 'status':
      return { kind: 'status' };
    default:
      return { kind: 'help' };
  }
}

/** The answer to anything else: what the chat understands. */
export const CHAT_HELP = [
  'Forge understands:',
  '- build: build the current project',
  '- build: <project>: build that project',
  '- fix: repair the newest failed build of the current project and build it again',
  '- status: Forge, its fleet and builds',
  '- brain: <question>: ask the brain (an authenticated brain session gets full answers; guests get help and status)',
].join('\n');
