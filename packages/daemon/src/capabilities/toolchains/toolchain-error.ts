/** Why a package manager could not be provisioned, with the catalogue code its step ends with. */
export class ToolchainError extends Error {
  constructor(
    readonly code: 'TOOLCHAIN_UNAVAILABLE' | 'STAGE_TIMEOUT' | 'CANCELLED',
    message: string,
  ) {
    super(message);
    this.name = 'ToolchainError';
  }
}
