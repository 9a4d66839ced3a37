import { defineConfig } from 'tsup';

/**
 * dist/index.js is what `forge tui` imports lazily. @forge/shared ships as TS source, so it is
 * bundled (with zod, which tui does not depend on directly); ink, react, ws and open stay external so
 * the CLI and the TUI share one installed copy of each.
 */
export default defineConfig({
  entry: ['src/index.ts'],
  outDir: 'dist',
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: true,
  dts: false,
  splitting: false,
  noExternal: ['@forge/shared'],
  external: ['ink', 'react', 'react/jsx-runtime', 'ws', 'open'],
  esbuildOptions(options) {
    options.jsx = 'automatic';
  },
});
