import path from 'node:path';

/**
 * A project-relative folder in canonical form ("dist", "public/app", "."), or null when it is absolute
 * or climbs out of the project: a preview must never serve a folder outside the project.
 */
export function projectDir(...segments: string[]): string | null {
  const joined = path.posix.normalize(path.posix.join(...segments.map((s) => s.replaceAll('\\', '/'))));
  if (
    path.posix.isAbsolute(joined) ||
    /^[A-Za-z]:/.test(joined) ||
    joined === '..' ||
    joined.startsWith('../')
  ) {
    return null;
  }
  return joined.replace(/\/+$/, '') || '.';
}
