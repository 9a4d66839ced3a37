import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The CLI's private files of FORGE_HOME/cli (the brain's session cookie, the family login): JSON
 * objects keyed by daemon address, readable by their owner only (0600, in a 0700 folder), written
 * whole and renamed in. A missing or damaged file reads as empty: what it held is a lost session,
 * which the next handshake or login replaces, not an error.
 */

/**
 * The entries of `file` that `parse` accepts (it returns undefined for one it does not), by daemon
 * address; an empty object when the file is missing, not JSON, or not an object.
 */
export async function readPerDaemon<T>(
  file: string,
  parse: (value: unknown) => T | undefined,
): Promise<Record<string, T>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  const entries: Record<string, T> = {};
  for (const [url, value] of Object.entries(parsed as Record<string, unknown>)) {
    const entry = parse(value);
    if (entry !== undefined) entries[url] = entry;
  }
  return entries;
}

/** Written whole to a temporary file of mode 0600, then renamed over the old one. */
export async function writePrivateJson(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  // mkdir's mode applies only to a folder it creates: FORGE_HOME/cli may predate this file.
  await chmod(dirname(file), 0o700);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFile applies only to a new file; a leftover temporary keeps its own.
  await chmod(temp, 0o600);
  await rename(temp, file);
}
