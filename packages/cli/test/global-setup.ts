import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '../../..');

/** The built files the CLI tests run: the forge bundle and the daemon entry it spawns. */
export const REQUIRED_BUILDS = ['packages/cli/dist/forge.js', 'packages/daemon/dist/main.js'];

/** Fail at once, with what to do, instead of every test timing out on a missing build. */
export function assertBuilt(): void {
  const missing = REQUIRED_BUILDS.filter((file) => !existsSync(join(REPO, file)));
  if (missing.length > 0) {
    throw new Error(
      `CLI tests run the built forge, but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing: run pnpm build (or pnpm --filter @forge/daemon build && pnpm --filter @forge/cli build) first.`,
    );
  }
}

export default function setup(): void {
  assertBuilt();
}
