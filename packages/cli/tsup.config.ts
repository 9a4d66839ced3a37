import { defineConfig } from 'tsup';
// A relative import: tsup loads this config with Node, which cannot run @forge/shared's TS source
// through the package name. constants.ts has no imports of its own.
import { FORGE_VERSION } from '../shared/src/constants.ts';
import { precomputedPlugin } from './scripts/precomputed-plugin.ts';
import { withoutZodLocalesPlugin } from './scripts/without-zod-locales-plugin.ts';

/**
 * dist/forge.js, run by bin/forge.js. @forge/shared (TS source) is bundled, zod with it (less its
 * unused translations); so is commander, which loads in ~4 ms as part of a chunk instead of ~12 ms
 * as a package of CommonJS files. Other npm dependencies stay external. What each kind of command
 * loads, split by dynamic imports: the entry (main.ts) answers `--version` with nothing else; the
 * read commands (read-path.ts, read.ts) load neither commander nor zod, as what they need of the
 * protocol is precomputed at build time (`*.precomputed.ts`, see the plugin); the program (cli.ts)
 * loads commander; lazy.ts, what following builds and moving files need (zod, child processes).
 * @forge/daemon is never imported (it runs as its own process); @forge/tui is loaded at run time by
 * `forge tui` only.
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
  noExternal: ['@forge/shared', 'commander'],
  external: ['@forge/tui', '@forge/daemon', 'open', 'ws'],
  // commander is CommonJS: its require() calls of Node built-ins need a real require in ESM chunks.
  banner: {
    js: "import { createRequire as __forgeRequire } from 'node:module'; const require = __forgeRequire(import.meta.url);",
  },
  define: { __FORGE_VERSION__: JSON.stringify(FORGE_VERSION) },
  esbuildPlugins: [precomputedPlugin(), withoutZodLocalesPlugin()],
});
