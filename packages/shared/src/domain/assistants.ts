import { z } from 'zod';

/**
 * The assistants' shared vocabulary (docs/assistants.md): ScanBot's diagnosis of a failed build, RepairBot's
 * repairs, ScanBot's project scan, CodeGenBot's generated code and MemoryBot's cells.
 */

/** What ScanBot can say a failed build failed of. Stable: never renamed, only added. */
export const DIAGNOSIS_CODES = [
  /** A package imported by source or config that package.json does not declare (or is not installed). */
  'MISSING_PACKAGE',
  /** A relative import of a project file that does not exist. */
  'MISSING_FILE',
  /** A relative import whose path differs from exactly one existing file only by letter case. */
  'IMPORT_CASE_MISMATCH',
  'SYNTAX_ERROR',
  'TYPE_ERROR',
  /** The lockfile does not match package.json (npm ci / --frozen-lockfile refused). */
  'LOCKFILE_OUT_OF_SYNC',
  /** The package manager refused conflicting peer dependencies (npm ERESOLVE). */
  'PEER_DEPENDENCY_CONFLICT',
  /** A script the build needs is not in package.json. */
  'MISSING_SCRIPT',
  /** The build ran but its output folder is missing or empty. */
  'OUTPUT_MISSING',
  /** The build fetched something from the network (a font, a schema) and could not. */
  'NETWORK_AT_BUILD',
  /** The project asks for another Node (engines, .nvmrc) and failed in a way that fits. */
  'NODE_VERSION_MISMATCH',
  /** The package manager or a tool the scripts call is not available. */
  'PACKAGE_MANAGER_MISSING',
  /** node_modules uploaded with the project was built for another platform. */
  'FOREIGN_NODE_MODULES',
  'OUT_OF_MEMORY',
  'TIMEOUT',
  /** The preview (a server app) could not listen: its port is taken. */
  'PORT_IN_USE',
  'UNKNOWN',
  /** The app stopped because an environment variable the output names is not set (or was refused); subjects: the names. */
  'MISSING_ENV',
  /** The registry answered that it has no such package or version; subjects: [package or package@version, registry host]. */
  'PACKAGE_NOT_ON_REGISTRY',
  /** Two packages that must be the same version are not (react and react-dom); subjects: [name@version, name@version]. */
  'MISMATCHED_PACKAGE_VERSIONS',
  /** The tool another stack needs (python3, go, php, hugo, cargo…) is not on the machine, or older than asked; subjects: [tool, minimum version]. */
  'TOOLCHAIN_MISSING',
  /** Node ran a CommonJS file as an ES module ("require is not defined in ES module scope"); subjects: [the file, the package.json that makes it ESM]. */
  'MODULE_FORMAT_MISMATCH',
  /** Another stack's program stopped on an error of its own (a Python exception, a PHP fatal error, a template that fails to render); subjects: [the exception or kind]. */
  'RUNTIME_ERROR',
  /** An import names an export the imported module does not have; subjects: [the name, the module]. */
  'MISSING_EXPORT',
  /** npm skipped a dependency's install script (allowScripts) and the failure is in what it would have made; subjects: [package, version, script]. */
  'INSTALL_SCRIPT_SKIPPED',
] as const;
export const DiagnosisCode = z.enum(DIAGNOSIS_CODES);
export type DiagnosisCode = z.infer<typeof DiagnosisCode>;

/** Repairs RepairBot knows how to make safely. Stable: never renamed, only added. */
export const REPAIR_CODES = [
  /** Add undeclared packages to package.json at the version the project's package manager resolves. */
  'ADD_MISSING_PACKAGES',
  /** Rewrite an import whose path differs from exactly one file only by case. */
  'FIX_IMPORT_CASE',
  /** Install without the frozen lockfile, so the lockfile is brought up to date. */
  'REINSTALL_UNFROZEN',
  /** Install again in the package manager's legacy peer-dependency mode. */
  'LEGACY_PEER_DEPS',
  /** Use the framework's own build command when package.json has no build script. */
  'USE_FRAMEWORK_BUILD',
  /** Remove uploaded node_modules built for another platform and install afresh. */
  'DROP_FOREIGN_NODE_MODULES',
  /** Pin a package that must match another (react-dom to react) to that one's version in package.json, then reinstall unlocked. */
  'ALIGN_PACKAGE_VERSIONS',
  /** Rename a CommonJS .js file that a "type": "module" package makes ESM to .cjs, and the package.json scripts that run it. */
  'USE_COMMONJS_EXTENSION',
  /** A peer conflict: ask for the newest version of the package whose peers accept the project's (tried before legacy peer mode). */
  'USE_PEER_COMPATIBLE_VERSION',
  /** A dependency needs a newer Node than the project states: declare its engines.node range in package.json, so Forge provides that Node. */
  'PIN_NODE_VERSION',
  /** The build wrote its site where the plan could not read: name that folder (the one index.html it wrote) as outputDir in forge.config.json. */
  'SET_OUTPUT_DIR',
  /** An ES module imports a relative file without its extension: write the extension of the one file Node names. */
  'ADD_IMPORT_EXTENSION',
  /** Rename an ESM .js file that a "type": "commonjs" package makes CommonJS to .mjs, and the package.json scripts that run it. */
  'USE_ESM_EXTENSION',
] as const;
export const RepairCode = z.enum(REPAIR_CODES);
export type RepairCode = z.infer<typeof RepairCode>;

const DIAGNOSIS_FIELDS = {
  code: DiagnosisCode,
  /** One sentence: what is wrong, naming the package, file or script. */
  summary: z.string(),
  /** Project-relative file the failure points at. */
  file: z.string().optional(),
  line: z.number().int().positive().optional(),
  column: z.number().int().positive().optional(),
  /** What to do about it, in one or two sentences (or which repair RepairBot can make). */
  suggestion: z.string().optional(),
  /** What it is about: package names for MISSING_PACKAGE, the import for a case mismatch, the script… */
  subjects: z.array(z.string()).optional(),
  /** The repair RepairBot can make for it, when one is safe. */
  repair: RepairCode.optional(),
};

/** One more error of the same failure, diagnosed on its own (a Diagnosis without `others`). */
export const DiagnosedError = z.object(DIAGNOSIS_FIELDS);
export type DiagnosedError = z.infer<typeof DiagnosedError>;

/** ScanBot's reading of a failed build (in its record, build-finished and the CLI's JSON). */
export const Diagnosis = z.object({
  ...DIAGNOSIS_FIELDS,
  /**
   * Every other distinct error of the failure, each diagnosed: those with a `repair` are made in the
   * same pass as this one's; those without remain for the developer.
   */
  others: z.array(DiagnosedError).optional(),
});
export type Diagnosis = z.infer<typeof Diagnosis>;

export const REPAIR_STATUSES = ['proposed', 'applied', 'failed', 'undone'] as const;
export const RepairStatus = z.enum(REPAIR_STATUSES);
export type RepairStatus = z.infer<typeof RepairStatus>;

/**
 * What RepairBot found when it tried a proposed repair on a scratch copy of the project (the failed
 * step run again there, in the same sandbox with the same toolchain): the build passes, some of the
 * errors it was made for are gone, none are (such a proposal is dropped), or it could not be tried.
 */
export const REPAIR_VERIFICATION_STATUSES = ['passes', 'partial', 'fails', 'not-run'] as const;
export const RepairVerification = z.object({
  status: z.enum(REPAIR_VERIFICATION_STATUSES),
  /** One line: "verified: the build passes", "verified: fixes 2 of 3 errors; …", or why it was not run. */
  detail: z.string(),
});
export type RepairVerification = z.infer<typeof RepairVerification>;

/** One repair RepairBot proposed or made (record, CLI JSON, FixIt). */
export const Repair = z.object({
  /** Stable id ("r_…"): `forge fix --undo` and the journal name it. */
  id: z.string(),
  code: RepairCode,
  /** What it did, as the live line says ("RepairBot added canvas-confetti@^1.9.3 to package.json"). */
  summary: z.string(),
  /** Project-relative files it changed (or would change). */
  files: z.array(z.string()),
  status: RepairStatus,
  /** Unified diff of the change to text files (empty for an install-mode repair). */
  diff: z.string().default(''),
  /** When it was proposed or applied (ISO-8601). */
  at: z.string(),
  /** The build it was made for. */
  buildId: z.string().nullable().default(null),
  /** A proposal's trial on a scratch copy of the project, before it was shown. */
  verification: RepairVerification.optional(),
});
export type Repair = z.infer<typeof Repair>;

/** POST /api/builds/:id/fix: apply the repairs proposed for a failed build, then build again. */
export const FixBody = z.object({
  /** Only these repair codes (default: every proposed repair). */
  codes: z.array(RepairCode).optional(),
});
export const FixResult = z.object({
  /** What was applied (each also on the new build's record). */
  repairs: z.array(Repair),
  /** The build started with the repairs. */
  buildId: z.string(),
  message: z.string(),
});
export type FixResult = z.infer<typeof FixResult>;

/** POST /api/projects/:name/repairs/undo: restore the files of the newest applied repairs (or one by id). */
export const UndoRepairBody = z.object({ id: z.string().optional() });
export const UndoRepairResult = z.object({
  restored: z.array(Repair),
  /** Project-relative files written back to what they were before. */
  files: z.array(z.string()),
  message: z.string(),
});
export type UndoRepairResult = z.infer<typeof UndoRepairResult>;

export const SCAN_ISSUE_KINDS = [
  'undeclared-import',
  'missing-script',
  'invalid-json',
  'committed-secret',
  'oversized-file',
  'type-error',
  'last-failure',
] as const;
export const ScanIssueKind = z.enum(SCAN_ISSUE_KINDS);
export type ScanIssueKind = z.infer<typeof ScanIssueKind>;

/** One finding of ScanBot's scan. Secrets are named (file, variable), never their value. */
export const ScanIssue = z.object({
  kind: ScanIssueKind,
  severity: z.enum(['error', 'warn', 'info']),
  summary: z.string(),
  file: z.string().optional(),
  line: z.number().int().positive().optional(),
  suggestion: z.string().optional(),
});
export type ScanIssue = z.infer<typeof ScanIssue>;

export const ScanReport = z.object({
  projectName: z.string(),
  scannedAt: z.string(),
  durationMs: z.number().nonnegative(),
  /** Files read. */
  files: z.number().int().nonnegative(),
  /** Whether the TypeScript check ran (it needs the project's dependencies installed). */
  typeChecked: z.boolean(),
  issues: z.array(ScanIssue),
  /** Set when the scan hit one of its bounds (files or bytes read) and did not see everything: what it left out. */
  incomplete: z.string().optional(),
});
export type ScanReport = z.infer<typeof ScanReport>;

export const CODE_KINDS = ['component', 'api', 'function', 'schema'] as const;
export const CodeKind = z.enum(CODE_KINDS);
export type CodeKind = z.infer<typeof CodeKind>;

export const GenerateBody = z.object({
  kind: CodeKind,
  description: z.string().trim().min(1).max(4_000),
  /** TypeScript (default) or plain JavaScript. */
  language: z.enum(['typescript', 'javascript']).optional(),
});
export const GenerateResult = z.object({
  code: z.string(),
  language: z.enum(['typescript', 'javascript']),
  /** A file name for the code, e.g. "UserCard.tsx". */
  fileName: z.string(),
  /** Who wrote it: the built-in generator, or the configured model (whose output parsed). */
  source: z.enum(['template', 'model']),
  /** The name and fields read from the description, for the screen. */
  name: z.string(),
  fields: z.array(z.object({ name: z.string(), type: z.string(), optional: z.boolean() })),
  /**
   * `implemented`: the code does what the description says (a recipe of the catalogue, or a model's
   * code that passed the recipe's checks). `skeleton`: typed scaffolding only, never a computation
   * other than the one asked for; `reason` says why.
   */
  kind: z.enum(['implemented', 'skeleton']),
  /** What the code implements (its recipe), or why it is only a skeleton. */
  reason: z.string(),
});
export type GenerateResult = z.infer<typeof GenerateResult>;

/** Memory cell keys are short words; values are text. */
export const MemoryKeyParams = z.object({ key: z.string().trim().min(1).max(200) });
export const MemorySetBody = z.object({ value: z.string().max(10_000) });
export const MemoryDeleteResult = z.object({ ok: z.literal(true), key: z.string() });

export const BrainGreetingBody = z.object({ greeting: z.string().trim().min(1).max(200) });
export const BrainCodeBody = z.object({ code: z.string().min(8).max(200) });
export const BrainConfigResult = z.object({
  ok: z.literal(true),
  /** Whether a greeting and a code phrase are set (the brain only authenticates once both are). */
  greetingSet: z.boolean(),
  codeSet: z.boolean(),
});
export type BrainConfigResult = z.infer<typeof BrainConfigResult>;
