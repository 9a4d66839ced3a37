import { defineConfig } from 'tsup';

/**
 * dist/main.js: the daemon entry the CLI spawns. @forge/shared is TypeScript source, so it is
 * bundled; npm packages stay external (better-sqlite3 is native). vite and @forge/web are
 * devDependencies used only by `run --dev`, loaded at runtime, never bundled.
 */
export default defineConfig({
  // The extraction thread runs from its own file beside main.js (thread-url.ts).
  entry: { main: 'src/main.ts', 'extract-thread': 'src/capabilities/extract/extract-thread.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  splitting: false,
  noExternal: ['@forge/shared'],
  external: ['vite', '@forge/web'],
});
