import * as fs from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { checkUploadFile } from '@forge/shared';
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
 * and the web UI's words, spec §5).
 */
export async function checkZipFile(path: string, cwd: string): Promise<ZipFile> {
  const absolute = resolve(cwd, path);
  let info: fs.Stats;
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

/**
 * The file as a multipart part whose bytes are counted as they are read for sending. fetch reads a
 * File part through its stream(), and a File that already has its name is kept as it is by
 * FormData, so the override stays in place and Content-Length is still computed from `size`.
 */
class CountingFile extends File {
  constructor(
    parts: Blob[],
    name: string,
    private readonly onRead: (bytes: number) => void,
  ) {
    super(parts, name, { type: 'application/zip' });
  }

  override stream(): ReturnType<File['stream']> {
    const onRead = this.onRead;
    return super.stream().pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          onRead(chunk.byteLength);
          controller.enqueue(chunk);
        },
      }),
    ) as ReturnType<File['stream']>;
  }
}

/**
 * The upload form: field `file` holding the ZIP. `fs.openAsBlob` (Node ≥ 19.8) gives a Blob backed
 * by the file, so 50 MB are streamed from disk rather than read into memory first.
 */
export async function zipForm(
  file: ZipFile,
  onRead: (bytes: number) => void = () => undefined,
): Promise<FormData> {
  const openAsBlob = (fs as { openAsBlob?: (path: string) => Promise<Blob> }).openAsBlob;
  const blob = openAsBlob ? await openAsBlob(file.path) : new Blob([await readFile(file.path)]);
  const form = new FormData();
  // No filename argument: with one, FormData would wrap the part in a new File and lose the counting.
  form.append('file', new CountingFile([blob], file.name, onRead));
  return form;
}
