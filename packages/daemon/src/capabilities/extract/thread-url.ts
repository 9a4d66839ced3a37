import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ExtractThreadData } from './thread-protocol.ts';

/** This module runs from TypeScript source (tsx, vitest) rather than from the tsup bundle. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/**
 * The thread entry, package-relative. The daemon's tsup config must emit it as `extract-thread.js` in
 * the same directory as the bundle that contains this module:
 * `entry: { main: 'src/main.ts', 'extract-thread': EXTRACT_THREAD_SOURCE }`.
 */
export const EXTRACT_THREAD_SOURCE = 'src/capabilities/extract/extract-thread.ts';

/** Where the thread file is: the .ts beside this file from source, dist/extract-thread.js once bundled. */
export const EXTRACT_THREAD_URL = new URL(
  FROM_SOURCE ? './extract-thread.ts' : './extract-thread.js',
  import.meta.url,
);

/**
 * Heap cap of the thread: a runaway becomes a failed extraction instead of a daemon out of memory.
 * A listing of 10,000 entries (the limit) takes a few MB of heap (zip-reader.ts keeps views into the
 * archive, not copies); archive and file bytes live outside the heap. The cap leaves ample room.
 */
const THREAD_HEAP_MB = 384;

let tsxLoaderUrl: string | undefined;

/**
 * tsx's ESM API, resolved through its package.json "exports" (the "import" condition; CommonJS
 * resolution would give the .cjs build, whose register() cannot start the hooks).
 */
function resolveTsxLoader(): string {
  if (tsxLoaderUrl !== undefined) return tsxLoaderUrl;
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    exports?: Record<string, { import?: { default?: string } } | string>;
  };
  const api = manifest.exports?.['./esm/api'];
  const file = typeof api === 'object' ? api.import?.default : undefined;
  if (file === undefined)
    throw new Error('tsx has no "./esm/api" export; cannot start the extraction thread from source');
  tsxLoaderUrl = pathToFileURL(path.join(path.dirname(manifestPath), file)).href;
  return tsxLoaderUrl;
}

/** Flags that preload modules; each takes a value, as a separate argument or after "=". */
const PRELOAD_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);

/**
 * The parent's Node flags minus module preloads. A thread inherits process.execArgv by default, and
 * re-running the parent's `--import tsx` in every thread costs 100-300 ms per extraction for nothing.
 */
function threadExecArgv(): string[] {
  const out: string[] = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const flag = arg.split('=')[0] as string;
    if (PRELOAD_FLAGS.has(flag)) {
      if (!arg.includes('=')) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/**
 * Starts the extraction thread. From source the thread must load TypeScript, but on Node 20
 * `execArgv: ['--import', 'tsx']` does not reach a thread's module loader (ERR_UNKNOWN_FILE_EXTENSION),
 * so a tiny bootstrap registers tsx inside the thread and then imports the entry.
 */
export function startExtractThread(workerData: ExtractThreadData): Worker {
  const options = {
    workerData,
    execArgv: threadExecArgv(),
    resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
  };
  if (!FROM_SOURCE) return new Worker(EXTRACT_THREAD_URL, options);
  const bootstrap =
    `import(${JSON.stringify(resolveTsxLoader())})` +
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(EXTRACT_THREAD_URL.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
