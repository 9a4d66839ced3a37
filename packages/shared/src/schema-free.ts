/**
 * `@forge/shared/schema-free`: the modules of @forge/shared that import no zod — constants, texts,
 * formatters, data-dir paths, the route table's paths, the build machine, the client model's
 * reducer and the socket's transport. A client that must start fast imports these from here: the
 * package root also evaluates every zod schema of the protocol (~30 ms, and ~45 KB gzip of a web
 * page's first load). The CLI's read commands and the web's first paint use this entry; types come
 * from the root with `import type`, which costs nothing at run time.
 * Add a module here only if it imports no zod, directly or through another module
 * (test/schema-free.test.ts follows the imports and holds it to that).
 */
export * from './constants.ts';
export * from './config-view.ts';
export * from './format.ts';
export * from './format-blueprint.ts';
export * from './duration.ts';
export * from './node-summary.ts';
export * from './paths.ts';
export * from './diagnosis-others.ts';
export * from './format-build-diff.ts';
export * from './ui-text.ts';
export * from './upload-check.ts';
export * from './tests-verdict.ts';
export * from './domain/stage-labels.ts';
export * from './domain/log-levels.ts';
export * from './domain/file-language.ts';
export * from './domain/build-statuses.ts';
export * from './domain/bot-roster.ts';
export * from './domain/worker-names.ts';
export * from './domain/settings-defaults.ts';
export * from './domain/test-counts.ts';
export * from './domain/build-machine.ts';
export * from './http/route-paths.ts';
export * from './client/socket-transport.ts';
export * from './state/log-lines.ts';
export * from './state/console-lines.ts';
export * from './state/client-state.ts';
export * from './state/client-store.ts';
export * from './http/route-path.ts';
export * from './client/call-route.ts';
