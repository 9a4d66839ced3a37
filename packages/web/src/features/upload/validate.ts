import { UI_TEXT } from '@forge/shared/schema-free';
import type { Protocol } from '@/lib/protocol.ts';

/** What a notice says: a title and, when there is more to say, a line under it. */
export interface Notice {
  title: string;
  description?: string;
}

/** A refused upload, carrying the notice to show. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  readonly notice: Notice;
  constructor(notice: Notice) {
    super(notice.title);
    this.notice = notice;
  }
}

/**
 * Project upload (docs/product.md#error-texts): the server's `error` field (with its hint under it), else
 * "Upload failed". Covers both a non-OK answer and an OK answer whose result says it did not succeed.
 * The schemas come from lib/protocol.ts, loaded by then.
 */
export function uploadFailureNotice(
  bodyText: string,
  { ErrorBody, UploadResult }: Pick<Protocol, 'ErrorBody' | 'UploadResult'>,
): Notice {
  let value: unknown;
  try {
    value = JSON.parse(bodyText);
  } catch {
    return { title: UI_TEXT.uploadFailed };
  }
  const body = ErrorBody.safeParse(value);
  if (body.success && body.data.error) {
    return body.data.hint
      ? { title: body.data.error, description: body.data.hint }
      : { title: body.data.error };
  }
  const result = UploadResult.safeParse(value);
  if (result.success && result.data.error) return { title: result.data.error };
  return { title: UI_TEXT.uploadFailed };
}

/**
 * docs/product.md#error-texts: anything else that went wrong (network, aborted connection) gets the generic
 * text.
 */
export const uploadErrorNotice = (error: unknown): Notice =>
  error instanceof UploadError ? error.notice : { title: UI_TEXT.uploadFailedGeneric };
