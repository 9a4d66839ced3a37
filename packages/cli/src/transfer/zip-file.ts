import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { checkUploadFile } from '@forge/shared';
import type { UploadFile } from '../http/multipart.ts';
import { CliError, EXIT } from '../output.ts';

/** A ZIP on disk that passed the checks the daemon would make, so a bad file fails fast. */
export interface ZipFile {
  path: string;
  /** File name sent as the multipart filename; the daemon derives the project name from it. */
  name: string;
  size: number;
}

/**
 * Check a ZIP before anything is sent (or a daemon started): it exists and is a file (else a usage
 * error, exit 2), and passes the checks every client makes (checkUploadFile: ends in .zip, at most
 * 50 MB) — a file the daemon would refuse is refused here already (exit 6, with the daemon's code
 * and the web UI's words, docs/product.md#validation).
 */
export async function checkZipFile(path: string, cwd: string): Promise<ZipFile> {
  const absolute = resolve(cwd, path);
  let info: Stats;
  try {
    info = await stat(absolute);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'ENOENT' ? `No such file: ${path}` : `Cannot read ${path}: ${(err as Error).message}`,
      { exitCode: EXIT.usage },
    );
  }
  if (info.isDirectory()) {
    throw new CliError(`${path} is a folder, not a ZIP file.`, {
      exitCode: EXIT.usage,
      hint: `Zip it first, e.g. (cd ${path} && zip -r ../${basename(absolute).replace(/\.zip$/i, '')}.zip .)`,
    });
  }
  // Named as on the command line, so the message points at what the user typed.
  const refusal = checkUploadFile({ name: path, size: info.size });
  if (refusal?.code === 'INVALID_FILE_TYPE') {
    throw new CliError(`${refusal.line} (${path})`, { exitCode: EXIT.refused, code: refusal.code });
  }
  if (refusal) {
    throw new CliError(refusal.line, {
      exitCode: EXIT.refused,
      code: refusal.code,
      hint: 'Leave node_modules and build output out of the ZIP.',
    });
  }
  return { path: absolute, name: basename(absolute), size: info.size };
}

/** The ZIP as the file of an upload (or plan) request, counting the bytes as they are read for sending. */
export function zipUpload(file: ZipFile, onRead?: (bytes: number) => void): UploadFile {
  return {
    path: file.path,
    name: file.name,
    size: file.size,
    type: 'application/zip',
    ...(onRead ? { onRead } : {}),
  };
}
