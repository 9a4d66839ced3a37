import type { UploadResult } from '@forge/shared';
import { ROUTE_PATHS } from '@forge/shared/schema-free';
import { protocol, type Protocol } from '@/lib/protocol.ts';
import { forgeClient } from '@/lib/api.ts';
import { UploadError, uploadFailureNotice } from './validate.ts';

export interface UploadOptions {
  /** "Upload and Rapid Build" (?rapid=1). */
  rapid?: boolean;
  /** Fraction of the file sent, 0..1. At 1 the daemon is extracting and planning. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * POST /api/upload (multipart field "file"). XMLHttpRequest rather than fetch: only it reports
 * upload progress. Resolves with the result when the daemon accepted the project (the build goes on
 * in the background); rejects with UploadError carrying the notice of docs/product.md#error-texts, or a
 * DOMException "AbortError" when cancelled.
 */
export function sendProjectUpload(file: File, options: UploadOptions = {}): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new DOMException('Upload cancelled', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const url = forgeClient.url('upload', options.rapid ? { query: { rapid: '1' } } : undefined);
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    });
    xhr.upload.addEventListener('load', () => options.onProgress?.(1));
    // The answer is read against the protocol's schemas, loaded after the first paint (lib/protocol.ts).
    xhr.addEventListener('load', () => {
      const { status, responseText } = xhr;
      protocol().then((schemas) => settle(schemas, status, responseText), reject);
    });
    const settle = (schemas: Protocol, status: number, text: string) => {
      if (status < 200 || status >= 300) {
        reject(new UploadError(uploadFailureNotice(text, schemas)));
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        reject(new UploadError(uploadFailureNotice(text, schemas)));
        return;
      }
      const parsed = schemas.UploadResult.safeParse(value);
      if (!parsed.success || !parsed.data.buildResult.success) {
        reject(new UploadError(uploadFailureNotice(text, schemas)));
        return;
      }
      resolve(parsed.data);
    };
    // A network failure, or the daemon closing the connection after refusing a large body.
    xhr.addEventListener('error', () => reject(new Error('network error')));
    xhr.addEventListener('abort', () => reject(new DOMException('Upload cancelled', 'AbortError')));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });

    const form = new FormData();
    form.append(ROUTE_PATHS.upload.multipart.field, file, file.name);
    xhr.send(form);
  });
}
