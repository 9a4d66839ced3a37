#!/usr/bin/env node
// The `forge` command. The CLI itself is TypeScript built to dist/ by `pnpm build`.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/forge.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'error: the forge CLI is not built (missing packages/cli/dist/forge.js).\nhint: run `pnpm build` in the Forge repository.\n',
  );
  process.exit(1);
}
await import(entry.href);
