#!/usr/bin/env node
// The `forge` command. The CLI itself is TypeScript built to dist/ by `pnpm build`.
import { existsSync } from 'node:fs';
import module from 'node:module';

const entry = new URL('../dist/forge.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'error: the forge CLI is not built (missing packages/cli/dist/forge.js).\nhint: run `pnpm build` in the Forge repository.\n',
  );
  process.exit(1);
}
// V8's compile cache (Node >= 22.1) spares later runs the parsing and compiling of our modules.
// Node 20 has no such API.
module.enableCompileCache?.();
await import(entry.href);
