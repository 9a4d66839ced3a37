import { ERROR_CATALOGUE, errorBody, type ErrorBody, type ErrorCode } from '@forge/shared';

/** An expected failure: a catalogue code, its HTTP status, and optional details for the client. */
export class ForgeError extends Error {
  override readonly name: string = 'ForgeError';
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: unknown,
  ) {
    super(message ?? ERROR_CATALOGUE[code].message);
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }

  toBody(): ErrorBody {
    return errorBody(this.code, this.message, this.details);
  }
}
