import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveInput } from './zip-file.ts';

export interface Completion {
  /** The input after completion (unchanged when nothing matched). */
  value: string;
  /** Names that matched when more than one did (folders end in "/"), for the prompt to list. */
  candidates: string[];
  /** Nothing matched. */
  none: boolean;
}

const isZip = (name: string) => /\.zip$/i.test(name);

function commonPrefix(names: readonly string[]): string {
  let prefix = names[0] ?? '';
  for (const name of names) {
    while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}

/**
 * Tab completion of the upload prompt, like a shell's: the last path segment is completed among
 * the folders and .zip files of its folder (relative to `cwd`; `~/` is the home folder). One match
 * is completed whole (a folder with its "/"); several are completed to their common prefix and
 * listed. Dotfiles are offered only when the segment starts with a dot.
 */
export async function completePath(input: string, cwd: string): Promise<Completion> {
  const slash = input.lastIndexOf('/');
  const dirPart = input.slice(0, slash + 1);
  const prefix = input.slice(slash + 1);
  const dir = dirPart === '' ? cwd : resolveInput(dirPart, cwd);
  let names: string[];
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    const matches = await Promise.all(
      entries
        .filter((e) => e.name.startsWith(prefix) && (prefix.startsWith('.') || !e.name.startsWith('.')))
        .map(async (e) => {
          let folder = e.isDirectory();
          // A link is offered as what it points to.
          if (e.isSymbolicLink())
            folder = await stat(join(dir, e.name)).then(
              (s) => s.isDirectory(),
              () => false,
            );
          if (folder) return `${e.name}/`;
          return isZip(e.name) ? e.name : null;
        }),
    );
    names = matches.filter((n): n is string => n !== null).sort((a, b) => a.localeCompare(b));
  } catch {
    names = [];
  }
  if (names.length === 0) return { value: input, candidates: [], none: true };
  if (names.length === 1) return { value: dirPart + names[0]!, candidates: [], none: false };
  return { value: dirPart + commonPrefix(names), candidates: names, none: false };
}
