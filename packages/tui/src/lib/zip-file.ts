import * as fs from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, resolve } from 'node:path';
import { MAX_UPLOAD_BYTES, UI_TEXT } from '@forge/shared';
import { formatBytes } from '../format.ts';

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
 * Check the path typed at the upload prompt before anything is sent: it exists, is a file, ends in
 * .zip and is at most 50 MB. Failures use the web's words (spec §8).
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
  if (!/\.zip$/i.test(path)) {
    return { ok: false, error: `${UI_TEXT.invalidFileType} — ${UI_TEXT.invalidFileTypeHint}` };
  }
  if (info.size > MAX_UPLOAD_BYTES) {
    return {
      ok: false,
      error: `${UI_TEXT.fileTooLarge} — ${UI_TEXT.fileTooLargeHint} (${typed} is ${formatBytes(info.size)})`,
    };
  }
  return { ok: true, file: { path, name: basename(path), size: info.size } };
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
