import type { Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/** Files whose exports are computed at build time: `*.precomputed.ts`. */
const PRECOMPUTED = /\.precomputed\.ts$/;

/**
 * Runs each `*.precomputed.ts` module at build time and bundles its exported values in place of its
 * code and imports. The CLI uses it for facts of the protocol (route paths, the JSON Schema of each
 * answer, stage labels…) that @forge/shared defines next to its zod schemas: importing them at run
 * time would load zod and every schema (~30 ms), which the read commands cannot afford. The source
 * module stays ordinary TypeScript that computes the values from @forge/shared, so tests and type
 * checks see the same values as the bundle, and nothing is written out by hand twice.
 *
 * Exports must be JSON data (objects, arrays, strings, finite numbers, booleans, null).
 */
export function precomputedPlugin(): EsbuildPlugin {
  return {
    name: 'forge-precomputed',
    setup(build) {
      build.onLoad({ filter: PRECOMPUTED }, async ({ path }) => {
        const result = await build.esbuild.build({
          entryPoints: [path],
          bundle: true,
          write: false,
          format: 'esm',
          platform: 'node',
          target: 'node20',
          metafile: true,
          logLevel: 'silent',
        });
        const code = result.outputFiles[0]!.text;
        const exports = (await import(
          `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`
        )) as Record<string, unknown>;
        const lines = Object.entries(exports).map(([name, value]) => {
          assertJson(value, `${path}: export ${name}`);
          // JSON.parse of a string literal parses faster than the same object literal (V8).
          return `export const ${name} = JSON.parse(${JSON.stringify(JSON.stringify(value))});`;
        });
        return {
          contents: lines.join('\n'),
          loader: 'js',
          // A change to any input (shared's schemas) rebuilds it in watch mode.
          watchFiles: Object.keys(result.metafile.inputs),
        };
      });
    },
  };
}

function assertJson(value: unknown, where: string): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number' && Number.isFinite(value)) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => assertJson(item, `${where}[${i}]`));
    return;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) assertJson(item, `${where}.${key}`);
    return;
  }
  throw new Error(`${where} is not JSON data (${typeof value}): a precomputed module exports data only.`);
}
