import { createReadStream } from 'node:fs';
import type { StreamedBody } from './send.ts';

/** A file on disk sent as the one field of a multipart upload. */
export interface UploadFile {
  path: string;
  /** The multipart filename (the daemon derives the project name from it). */
  name: string;
  size: number;
  type: string;
  /** Bytes of the file read for sending, as they are read (for a progress line). */
  onRead?: (bytes: number) => void;
}

/**
 * A multipart/form-data body holding one file, as fetch (undici) writes it from a FormData: the same
 * part headers and escapes, the length known up front (Content-Length, not chunked), the file
 * streamed from disk so 50 MB are never held in memory. FormData itself is not used: on Node 20 its
 * first use loads undici (~20 ms).
 */
export function fileBody(field: string, file: UploadFile): { contentType: string; body: StreamedBody } {
  const boundary = `----formdata-forge-${Math.random().toString().slice(2, 13).padStart(11, '0')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${escape(field)}"; filename="${escape(file.name)}"\r\nContent-Type: ${file.type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: {
      length: head.byteLength + file.size + tail.byteLength,
      async *chunks() {
        yield head;
        let read = 0;
        for await (const chunk of createReadStream(file.path) as AsyncIterable<Buffer>) {
          read += chunk.byteLength;
          // A file that grew since it was checked would overrun the Content-Length sent.
          if (read > file.size) throw new Error(`${file.name} changed while it was being sent.`);
          file.onRead?.(chunk.byteLength);
          yield chunk;
        }
        if (read !== file.size) throw new Error(`${file.name} changed while it was being sent.`);
        yield tail;
      },
    },
  };
}

/** undici's escape of a name inside the quotes of Content-Disposition. */
const escape = (name: string): string =>
  name.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
