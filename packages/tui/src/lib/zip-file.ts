import * as fs from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, resolve } from 'node:path';
import { checkUploadFile } from '@forge/shared';

/** A ZIP on disk that passed the checks the daemon would make. */
export interface ZipFile {
  path: string;
  /** Sent as the multipart file name: the daemon derives the project name from it. */
  name: string;
  size: number;
}

export type ZipCheck = { ok: true; file: ZipFile } | { ok: false; error: string };

/** `~` and `~/x` as the shell would read them; everything else relative to `cwd`. */
export function resolveInput(input: string, cwd: string): string {
  if (input === '~') return homedir();
  if (input.startsWith('~/')) return resolve(homedir(), input.slice(2));
  return resolve(cwd, input);
}

/**
 * Check the path typed at the upload prompt before anything is sent: it exists and is a file, and
 * it passes the shared pre-check every client makes (.zip, at most 50 MB, in the spec's words).
 */
export async function checkZipFile(input: string, cwd: string): Promise<ZipCheck> {
  const typed = input.trim();
  if (typed === '') return { ok: false, error: 'Type the path of a .zip file (tab completes).' };
  const path = resolveInput(typed, cwd);
  let info: fs.Stats;
  try {
    info = await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {
      ok: false,
      error: code === 'ENOENT' ? `No such file: ${typed}` : `Cannot read ${typed}: ${(err as Error).message}`,
    };
  }
  if (info.isDirectory()) return { ok: false, error: `${typed} is a folder, not a ZIP file — zip it first.` };
  const file = { path, name: basename(path), size: info.size };
  const refusal = checkUploadFile(file);
  return refusal ? { ok: false, error: refusal.line } : { ok: true, file };
}

/**
 * The upload form: field `file` holding the ZIP. `fs.openAsBlob` gives a Blob backed by the file,
 * so 50 MB are streamed from disk rather than read into memory first.
 */
export async function zipForm(file: ZipFile): Promise<FormData> {
  const openAsBlob = (fs as { openAsBlob?: (path: string) => Promise<Blob> }).openAsBlob;
  const blob = openAsBlob ? await openAsBlob(file.path) : new Blob([await readFile(file.path)]);
  const form = new FormData();
  form.append('file', new File([blob], file.name, { type: 'application/zip' }));
  return form;
}
