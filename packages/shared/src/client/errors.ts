import { ErrorBody, httpErrorMessage } from '../errors.ts';

/**
 * A non-OK HTTP answer. `message` follows docs/product.md#error-texts ("status: body text"); `serverMessage`,
 * `code` and `hint` come from the daemon's error body when it sent one.
 */
export class ForgeHttpError extends Error {
  override readonly name = 'ForgeHttpError';
  readonly status: number;
  readonly code: string | undefined;
  readonly serverMessage: string;
  readonly hint: string | undefined;
  readonly bodyText: string;

  constructor(status: number, statusText: string, bodyText: string) {
    super(httpErrorMessage(status, statusText, bodyText));
    this.status = status;
    this.bodyText = bodyText;
    let parsed: ErrorBody | undefined;
    try {
      const result = ErrorBody.safeParse(JSON.parse(bodyText));
      if (result.success) parsed = result.data;
    } catch {
      parsed = undefined;
    }
    this.code = parsed?.code;
    this.serverMessage = parsed?.error ?? (bodyText || statusText);
    this.hint = parsed?.hint;
  }
}

/** The daemon could not be reached at all (connection refused, DNS, reset). */
export class ForgeUnreachableError extends Error {
  override readonly name = 'ForgeUnreachableError';
  readonly baseUrl: string;
  constructor(baseUrl: string, cause: unknown) {
    super(`Cannot reach the Forge daemon at ${baseUrl}`, { cause });
    this.baseUrl = baseUrl;
  }
}

/** The daemon answered 2xx with a body that does not match the protocol. */
export class ForgeProtocolError extends Error {
  override readonly name = 'ForgeProtocolError';
}
