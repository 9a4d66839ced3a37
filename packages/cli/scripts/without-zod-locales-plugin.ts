import type { Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * Leaves zod's translations of its error messages out of the bundle. zod exports some forty of them
 * as `z.locales` (~370 KB, 40 % of zod) and Forge uses none: the English messages are configured by
 * zod from their own module, which stays. Every command that loads the protocol's schemas (those
 * that follow builds) parses that much less, ~5 ms. `z.locales` is then an empty namespace.
 */
export function withoutZodLocalesPlugin(): EsbuildPlugin {
  return {
    name: 'forge-without-zod-locales',
    setup(build) {
      build.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, ({ path, importer }) =>
        /[\\/]zod[\\/]v4[\\/]/.test(importer) ? { path, namespace: 'zod-without-locales' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'zod-without-locales' }, () => ({
        contents: 'export {};',
        loader: 'js',
      }));
    },
  };
}
