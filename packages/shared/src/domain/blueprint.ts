import { z } from 'zod';

export const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn', 'bun'] as const;
export const PackageManager = z.enum(PACKAGE_MANAGERS);
export type PackageManager = z.infer<typeof PackageManager>;

/** What kind of thing the project is, which decides how it is previewed. */
export const ProjectKind = z.enum([
  /** Built to a static output dir that PreviewBot serves. */
  'static-build',
  /** Already static (root index.html, no build): served as is, stage no-build-needed. */
  'static',
  /** A server app: its start script runs with PORT set. */
  'server',
  /** Nothing Forge knows how to build or serve. */
  'unknown',
]);
export type ProjectKind = z.infer<typeof ProjectKind>;

/** One decision of the plan, with the file and rule that made it. */
export const BlueprintDecision = z.object({
  /** What was decided, e.g. "packageManager". */
  field: z.string(),
  /** The value chosen, as text. */
  value: z.string(),
  /** Project-relative file that was the evidence, or null for a default. */
  file: z.string().nullable(),
  /** The rule, in words, e.g. "pnpm-lock.yaml present". */
  rule: z.string(),
});
export type BlueprintDecision = z.infer<typeof BlueprintDecision>;

/** A command to run: argv form, never a shell string. */
export const CommandLine = z.array(z.string()).min(1);

/** The build plan BlueprintBot makes for a project (GET /api/builds/:id → blueprint). */
export const Blueprint = z.object({
  kind: ProjectKind,
  /** Detected framework id, e.g. "vite", "cra", "next-export", "static", "express". */
  framework: z.string(),
  hasPackageJson: z.boolean(),
  packageManager: PackageManager.nullable(),
  /** Locked install command, e.g. ["npm","ci"]; null when there is nothing to install. */
  install: CommandLine.nullable(),
  build: CommandLine.nullable(),
  test: CommandLine.nullable(),
  start: CommandLine.nullable(),
  /** Project-relative output dir served by the preview; "." for a plain static site. */
  outputDir: z.string().nullable(),
  /** Extra environment for every command, from the project's forge config. */
  env: z.record(z.string(), z.string()),
  /** Per-stage timeout in ms. */
  timeoutMs: z.number().int().positive(),
  decisions: z.array(BlueprintDecision),
});
export type Blueprint = z.infer<typeof Blueprint>;
