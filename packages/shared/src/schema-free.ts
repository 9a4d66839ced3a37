/**
 * `@forge/shared/schema-free`: the modules of @forge/shared that import no zod (constants,
 * formatters, data-dir paths). A client that must start fast (the CLI's read commands) imports
 * these from here: the package root also evaluates every zod schema of the protocol (~30 ms).
 * Add a module here only if it imports no zod, directly or through another module.
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
export * from './http/route-path.ts';
export * from './client/call-route.ts';
