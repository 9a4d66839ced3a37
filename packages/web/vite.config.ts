import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { IncomingMessage } from 'node:http';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
// Relative on purpose: Vite loads this file with Node, which cannot import the TS-source package
// `@forge/shared`; a relative import is bundled into the config instead. constants.ts imports nothing.
import { DEFAULT_HOST, DEFAULT_PORT } from '../shared/src/constants.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Where standalone `vite` dev forwards /api and /ws; FORGE_URL points it at a daemon elsewhere. */
const daemonUrl = process.env.FORGE_URL || `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;

/**
 * The daemon refuses a foreign Origin on writes and WS upgrades (docs/reliability.md#browser-attacks). A page
 * served by this dev server is same-origin with it, so only then is Origin rewritten to the daemon's own; a
 * request from any other site keeps its Origin and is still refused.
 */
function rewriteSameOrigin(proxyReq: { setHeader(name: string, value: string): void }, req: IncomingMessage) {
  const { origin, host } = req.headers;
  if (origin && host && (origin === `http://${host}` || origin === `https://${host}`)) {
    proxyReq.setHeader('origin', new URL(daemonUrl).origin);
  }
}

const BOOT_ENTRY = 'src/boot.ts';

/**
 * Builds src/boot.ts as its own tiny chunk and puts it in index.html's head as a classic inline
 * script, first among the page's scripts and stylesheets: the parser runs it the moment it reaches
 * it, with no request to wait for, and it dials /ws (before the page has asked for anything else) and
 * asks for the shell's first reads while the app's chunks are still downloading (the app adopts both:
 * lib/early-socket.ts, lib/boot-reads.ts). Classic, not `type="module" async`: Chromium ran the async
 * inline module only after the first frame's style, layout and paint (~90 ms later in a trace on
 * these machines), so the socket was dialled late; a classic script ahead of the stylesheet does not
 * wait for it either. Wrapped in a strict function so its names stay out of the page's globals. The
 * daemon allows exactly this script by its hash in the page's CSP (daemon features/web-app/serve-web.ts).
 * A separate entry because every module script of index.html would otherwise be merged into the
 * app's entry chunk, which runs only once all of its imports have arrived. Build only: in dev the
 * app dials and reads for itself.
 */
function bootScript(): Plugin {
  return {
    name: 'forge:boot-script',
    apply: 'build',
    buildStart() {
      this.emitFile({
        type: 'chunk',
        id: fileURLToPath(new URL(BOOT_ENTRY, import.meta.url)),
        name: 'boot',
      });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.name === 'boot');
        if (!chunk || chunk.type !== 'chunk') return html;
        if (chunk.imports.length > 0 || chunk.exports.length > 0) {
          throw new Error(
            `${BOOT_ENTRY} must import and export nothing at run time; it imports ${chunk.imports.join(', ')}`,
          );
        }
        const code = classicScript(chunk.code.replace(/\n\/\/# sourceMappingURL=.*$/, '').trim());
        if (/<\/script|<!--/i.test(code))
          throw new Error(`${BOOT_ENTRY} cannot be inlined: it holds </script or <!--`);
        // Inline, so nothing else serves it.
        delete ctx.bundle![chunk.fileName];
        // Before the first of the app's script and stylesheets: the socket is dialled before the
        // app's chunk is asked for, and the parser does not hold the script for a stylesheet.
        const first = /(\n\s*)<(?:script type="module"|link rel="stylesheet")/.exec(html);
        if (!first)
          throw new Error('index.html has no module script or stylesheet to put the boot script before');
        const at = first.index + first[1]!.length;
        return `${html.slice(0, at)}<script>${code}</script>${first[1]}${html.slice(at)}`;
      },
    },
  };
}

/**
 * The boot chunk (an ES module that imports and exports nothing) as a classic script: one strict
 * function run at once, so its top-level names stay its own. Compiled here, not run, to refuse what a
 * classic script cannot hold (a top-level await, import.meta) at build time instead of in the page.
 */
function classicScript(moduleCode: string): string {
  const code = `(()=>{"use strict";${moduleCode}\n})();`;
  if (/\bimport\.meta\b/.test(moduleCode)) throw new Error(`${BOOT_ENTRY} uses import.meta`);
  try {
    new vm.Script(code);
  } catch (err) {
    throw new Error(`${BOOT_ENTRY} cannot run as a classic script: ${(err as Error).message}`);
  }
  return code;
}

/** The dashboard's first frame (src/shell.html), without its leading comment. */
const SHELL_FILE = 'src/shell.html';
/** The page for every path but "/": index.html with an empty #root (the daemon's history fallback). */
const APP_PAGE = 'app.html';

/**
 * Puts the dashboard's first frame (src/shell.html) in index.html's #root, so the page at "/" is on
 * screen with its upload control before any script has arrived, and writes the same page with an
 * empty #root as app.html, which the daemon answers for every other page path (so no other screen
 * shows the dashboard's frame first). React renders over the frame: createRoot replaces what the
 * container holds on its first commit. Build only: in dev the app renders into an empty page.
 */
function appShell(): Plugin {
  let plain = '';
  let outDir = '';
  return {
    name: 'forge:app-shell',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const source = await fs.readFile(path.join(root, SHELL_FILE), 'utf8');
        const shell = source.replace(/^\s*<!--[\s\S]*?-->\s*/, '').trim();
        const empty = '<div id="root"></div>';
        if (!html.includes(empty)) throw new Error(`index.html has no ${empty} for ${SHELL_FILE}`);
        plain = html;
        return html.replace(empty, `<div id="root">${shell}</div>`);
      },
    },
    // Once index.html is written: Vite writes its pages after the other plugins' generateBundle.
    async writeBundle() {
      if (!plain) throw new Error('index.html was not transformed before the bundle was written');
      await fs.writeFile(path.join(outDir, APP_PAGE), plain);
    },
  };
}

/** Smaller files are not worth a second request path and two more files on disk. */
const PRECOMPRESS_MIN_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every script and stylesheet of the build, for
 * the daemon to send to a browser that accepts them (daemon src/http/web.ts): the first load's
 * ~760 KB of script travel as ~220 KB. Compressed once here, never per request. Brotli at quality 9:
 * quality 11 is ~8 % smaller and ten times slower to build (~40 s for Monaco's 15 MB).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'forge:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.values(bundle)
        .map((item) => ({ name: item.fileName, data: item.type === 'chunk' ? item.code : item.source }))
        .filter(({ name, data }) => /\.(js|css)$/.test(name) && data.length >= PRECOMPRESS_MIN_BYTES);
      await Promise.all(
        files.map(async ({ name, data }) => {
          const file = path.join(outDir, name);
          const raw = typeof data === 'string' ? Buffer.from(data) : data;
          const [br, gz] = await Promise.all([
            brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }),
            gzip(raw, { level: 9 }),
          ]);
          await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

export default defineConfig({
  // Explicit root: the daemon mounts this config in middleware mode from its own working directory.
  root,
  plugins: [react(), tailwindcss(), bootScript(), appShell(), precompress()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The shell's entry chunk is ~380 kB minified (react-dom ~200, react-router ~36 without its
    // data router; zod and the protocol's schemas load after the first paint, src/lib/protocol.ts).
    // Warn as soon as a chunk grows past this: heavy screens (Monaco, …) belong in lazy chunks.
    chunkSizeWarningLimit: 640,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically in one chunk: the first load is the same bytes
          // in one request instead of two dozen, which the browser and the daemon each handle at
          // a cost. Lazy screens and cards keep their own chunks. The boot script imports nothing.
          groups: [{ name: 'first-load', tags: ['$initial'], test: (id) => !id.includes('/src/boot') }],
        },
      },
    },
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
    // Testing Library waits up to 10 s (src/test/setup.ts) on a busy CI machine; the test itself must
    // be allowed longer than that, or it is cut at vitest's default 5 s while it still waits on state.
    testTimeout: 20_000,
  },
});
