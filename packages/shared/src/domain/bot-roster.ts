// The fleet's roster, its buttons and words, without the bots' schemas (bots.ts holds them and
// re-exports these), so a client's first paint can use them without zod (schema-free.ts).

export const BOT_CATEGORIES = ['infrastructure', 'development', 'operations', 'services'] as const;
// The type from the list itself: importing it from the schema file would make an import cycle.
type BotCategory = (typeof BOT_CATEGORIES)[number];

export interface BotDefinition {
  name: string;
  category: BotCategory;
  description: string;
}

/**
 * The 25-bot roster (docs/product.md#the-fleet): infrastructure 6, development 6, operations 6, services 7.
 */
export const BOT_ROSTER: readonly BotDefinition[] = [
  {
    name: 'ExtractBot',
    category: 'infrastructure',
    description: 'Extracts uploaded ZIPs safely into the project folder',
  },
  {
    name: 'DependencyBot',
    category: 'infrastructure',
    description: 'Installs dependencies with the locked package manager',
  },
  {
    name: 'CacheBot',
    category: 'infrastructure',
    description: 'Reuses outputs and installs when nothing changed',
  },
  { name: 'PreviewBot', category: 'infrastructure', description: 'Serves the built app on its own origin' },
  {
    name: 'PackageBot',
    category: 'infrastructure',
    description: 'Zips sources and build outputs for download',
  },
  {
    name: 'WatchBot',
    category: 'infrastructure',
    description: 'Watches project files and pushes changes live',
  },
  { name: 'BuildBot', category: 'development', description: 'Runs the project build script' },
  { name: 'UiBot', category: 'development', description: 'Checks the built output and its assets' },
  { name: 'TestBot', category: 'development', description: 'Runs the project tests' },
  {
    name: 'OptimizationBot',
    category: 'development',
    description: 'Reports bundle sizes and flags heavy files',
  },
  { name: 'LintBot', category: 'development', description: 'Runs the project linter when one is configured' },
  {
    name: 'CodeGenBot',
    category: 'development',
    description: 'Generates components, APIs, functions and schemas',
  },
  {
    name: 'BlueprintBot',
    category: 'operations',
    description: 'Detects the package manager, framework and build plan',
  },
  {
    name: 'WorkflowBot',
    category: 'operations',
    description: 'Describes the build workflow of the current project',
  },
  { name: 'ScanBot', category: 'operations', description: 'Scans the project for issues' },
  {
    name: 'RepairBot',
    category: 'operations',
    description: 'Retries failed jobs and repairs missing modules',
  },
  { name: 'IntegrationBot', category: 'operations', description: 'Integrates finished builds' },
  { name: 'HealthBot', category: 'operations', description: 'Checks the daemon and the fleet' },
  { name: 'BrainBot', category: 'services', description: 'Answers the brain chat' },
  { name: 'ForgeBot', category: 'services', description: 'Runs the Forge assistant commands' },
  { name: 'ChatBot', category: 'services', description: 'Carries chat messages over the live socket' },
  { name: 'ExtensionBot', category: 'services', description: 'Installs and lists extensions' },
  { name: 'MemoryBot', category: 'services', description: 'Keeps the memory cells' },
  { name: 'AuthBot', category: 'services', description: 'Guards the university area' },
  { name: 'LogBot', category: 'services', description: 'Stores and streams every log line' },
];

export const DEFAULT_BUILDER_BOTS = ['BuildBot', 'UiBot', 'TestBot', 'OptimizationBot'] as const;

export const isKnownBot = (name: string): boolean => BOT_ROSTER.some((b) => b.name === name);

/**
 * Colour class of an activity status (docs/product.md#routes-and-navigation): online green, pending yellow,
 * anything else red.
 */
export const activityTone = (status: string): 'online' | 'pending' | 'error' =>
  status === 'online' ? 'online' : status === 'pending' ? 'pending' : 'error';

/**
 * What the Build and Fix buttons of each bot's card do: the bot's own job, or `disabled` with the
 * reason shown on the card (its title), in `forge bots` and in the route's 409 `BOT_HAS_NO_JOB`.
 */
export type BotButton = { does: string } | { disabled: string };
export interface BotButtons {
  build: BotButton;
  fix: BotButton;
}

const RETRY = { does: 'retries its last failed job' } as const;
const pipelineStep = (what: string): BotButtons => ({
  build: { disabled: `${what} is a step of every build: use BuildBot's Build (or forge build)` },
  fix: { disabled: `${what} is a step of every build: use BuildBot's Fix (or forge build)` },
});
const worksFrom = (where: string): BotButtons => ({
  build: { disabled: `it works from ${where}` },
  fix: { disabled: `it works from ${where}` },
});

export const BOT_BUTTONS: Readonly<Record<string, BotButtons>> = {
  ExtractBot: worksFrom('every upload (upload a project ZIP)'),
  DependencyBot: pipelineStep('installing dependencies'),
  CacheBot: {
    build: { does: 'verifies every project install cache and evicts the stale ones' },
    fix: { does: "evicts the current project's install cache: its next build installs afresh" },
  },
  PreviewBot: pipelineStep('starting the preview'),
  PackageBot: {
    build: { does: 'packages the platform into an archive (as package-platform)' },
    fix: RETRY,
  },
  WatchBot: worksFrom('the file explorer and editor (file changes)'),
  BuildBot: {
    build: { does: 'builds the current project from scratch' },
    fix: { does: 'rebuilds the project of its last failed build' },
  },
  UiBot: pipelineStep('checking the output'),
  TestBot: pipelineStep('running the tests'),
  OptimizationBot: pipelineStep('reporting bundle sizes'),
  LintBot: pipelineStep('running the linter'),
  CodeGenBot: worksFrom('the Code Generator page (or forge generate)'),
  BlueprintBot: pipelineStep('planning the project'),
  WorkflowBot: { build: { does: 'describes the build workflow of the current project' }, fix: RETRY },
  ScanBot: { build: { does: 'scans the current project for issues' }, fix: RETRY },
  RepairBot: {
    build: { does: "repairs the current project's last failed build, then rebuilds it" },
    fix: { does: "repairs the current project's last failed build, then rebuilds it" },
  },
  IntegrationBot: {
    build: { does: "integrates the current project's last successful build" },
    fix: RETRY,
  },
  HealthBot: { build: { does: 'checks the daemon and the fleet' }, fix: RETRY },
  BrainBot: worksFrom('the brain chat (or forge brain)'),
  ForgeBot: worksFrom('the Forge assistant (or forge chat)'),
  ChatBot: worksFrom('the Console chat (or forge chat)'),
  ExtensionBot: worksFrom('the extension manager (or forge ext)'),
  MemoryBot: worksFrom('the brain\'s "remember …" (or forge memory)'),
  AuthBot: worksFrom('the university login (or forge family)'),
  LogBot: {
    build: { does: 'rotates the daemon log and exports the logs of old builds to files' },
    fix: RETRY,
  },
};

/** Why a bot's button is disabled, or null when it runs the bot's job. */
export const botButtonDisabled = (botName: string, button: 'build' | 'fix'): string | null => {
  const b = BOT_BUTTONS[botName]?.[button];
  return b && 'disabled' in b ? b.disabled : null;
};
