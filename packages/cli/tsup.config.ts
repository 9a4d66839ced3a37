import { defineConfig } from 'tsup';
// A relative import: tsup loads this config with Node, which cannot run @forge/shared's TS source
// through the package name. constants.ts has no imports of its own.
import { FORGE_VERSION } from '../shared/src/constants.ts';

/**
 * dist/forge.js, run by bin/forge.js. @forge/shared (TS source) is bundled, zod with it; npm
 * dependencies stay external. Code splitting keeps the entry chunk light: each command's heavy
 * modules are dynamic imports, so `forge --version` loads commander and little else. @forge/daemon is
 * never imported (it runs as its own process); @forge/tui is loaded at run time by `forge tui` only.
 */
export default defineConfig({
  entry: { forge: 'src/main.ts' },
  outDir: 'dist',
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: true,
  dts: false,
  splitting: true,
  noExternal: ['@forge/shared'],
  external: ['@forge/tui', '@forge/daemon', 'commander', 'open', 'ws'],
  define: { __FORGE_VERSION__: JSON.stringify(FORGE_VERSION) },
});
