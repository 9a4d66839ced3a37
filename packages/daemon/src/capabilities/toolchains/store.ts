import type { Blueprint } from '@forge/shared';

/**
 * Forge's shared install store. A project with no lockfile has nothing to be faithful to, so instead of
 * `npm install` resolving and unpacking everything again it installs with the provisioned pnpm from a
 * content-addressed store in FORGE_HOME: node_modules hoisted as npm lays it out (scripts still run with
 * npm), files hard-linked from the store, metadata taken from pnpm's cache before the network.
 */
export function storeInstallArgv(options: { copy: boolean }): string[] {
  return [
    'pnpm',
    'install',
    '--config.node-linker=hoisted',
    // Nothing to freeze (pnpm freezes by default under CI) and nothing to write back into the upload.
    '--no-lockfile',
    '--prefer-offline',
    // npm runs every dependency's install scripts; pnpm 10 runs none unless told.
    '--config.dangerously-allow-all-builds=true',
    // A project that patches its dependencies after install must not patch the shared store's files.
    ...(options.copy ? ['--config.package-import-method=copy'] : []),
    '--reporter=append-only',
  ];
}

/** The plan installs an npm project through the shared store (npm scripts, pnpm install). */
export const isStoreInstall = (bp: Pick<Blueprint, 'packageManager' | 'toolchain' | 'install'>): boolean =>
  bp.packageManager === 'npm' && bp.toolchain?.tool === 'pnpm' && bp.install?.[0] === 'pnpm';

/** Installs that use the shared store: every pnpm install (the store path and pnpm projects alike). */
export const usesStore = (argv: readonly string[]): boolean => argv[0] === 'pnpm';
