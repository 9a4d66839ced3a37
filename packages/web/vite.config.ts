import { fileURLToPath } from 'node:url';
import type { IncomingMessage } from 'node:http';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vitest/config';
// Relative on purpose: Vite loads this file with Node, which cannot import the TS-source package
// `@forge/shared`; a relative import is bundled into the config instead. constants.ts imports nothing.
import { DEFAULT_HOST, DEFAULT_PORT } from '../shared/src/constants.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Where standalone `vite` dev forwards /api and /ws; FORGE_URL points it at a daemon elsewhere. */
const daemonUrl = process.env.FORGE_URL || `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;

/**
 * The daemon refuses a foreign Origin on writes and WS upgrades (ARCHITECTURE §5). A page served by
 * this dev server is same-origin with it, so only then is Origin rewritten to the daemon's own; a
 * request from any other site keeps its Origin and is still refused.
 */
function rewriteSameOrigin(proxyReq: { setHeader(name: string, value: string): void }, req: IncomingMessage) {
  const { origin, host } = req.headers;
  if (origin && host && (origin === `http://${host}` || origin === `https://${host}`)) {
    proxyReq.setHeader('origin', new URL(daemonUrl).origin);
  }
}

export default defineConfig({
  // Explicit root: the daemon mounts this config in middleware mode from its own working directory.
  root,
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The shell's floor is ~600 kB minified (react-dom ~200, react-router ~90, zod ~90 for the shared
    // protocol schemas the socket parses with). Warn as soon as the first-load chunk grows past it:
    // heavy screens (Monaco, …) belong in lazy chunks.
    chunkSizeWarningLimit: 640,
  },
  server: {
    host: DEFAULT_HOST,
    // Only used by standalone `vite`: when the daemon mounts Vite itself it answers /api and /ws
    // before Vite sees them, and middleware mode has no HTTP server for the WS proxy to attach to.
    proxy: {
      '/api': {
        target: daemonUrl,
        changeOrigin: true,
        configure: (proxy) => proxy.on('proxyReq', rewriteSameOrigin),
      },
      '/ws': {
        target: daemonUrl,
        ws: true,
        changeOrigin: true,
        configure: (proxy) => proxy.on('proxyReqWs', rewriteSameOrigin),
      },
    },
  },
  preview: { host: DEFAULT_HOST },
  test: {
    name: 'web',
    root,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
  },
});
