/** Replaced at build time by tsup (`define`) with FORGE_VERSION from @forge/shared. */
declare const __FORGE_VERSION__: string | undefined;

/**
 * The version `forge --version` prints. Injected at build time instead of imported so the
 * `--version` path never loads @forge/shared (and zod).
 */
export const CLI_VERSION: string = typeof __FORGE_VERSION__ === 'string' ? __FORGE_VERSION__ : '0.0.0-dev';
