/**
 * Dev servers, watchers and build previews: commands a `start` script often runs that are not a
 * production server (they rebuild on change, serve unoptimised code, or only preview a build). One
 * table, so every rule that looks at a start script answers the same.
 */
import { commandsOfScript, scriptCommands, type ScriptCommand } from './script-commands.ts';

/** The first argument that is not a flag: the subcommand (`vite dev` → "dev"), or "" when none. */
const subcommand = (args: readonly string[]): string => args.find((a) => !a.startsWith('-')) ?? '';
const hasFlag = (args: readonly string[], ...flags: string[]): boolean =>
  args.some((a) => flags.some((f) => a === f || a.startsWith(`${f}=`)));

interface DevServerRule {
  bins: readonly string[];
  /** Whether these arguments make it a dev server; always when absent. */
  when?: (args: readonly string[]) => boolean;
  /** What it is, for the rule text. */
  what: string;
}

/** `bin sub` is a dev server for these subcommands ("" = no subcommand). */
const sub =
  (...names: string[]) =>
  (args: readonly string[]): boolean =>
    names.includes(subcommand(args));

const DEV_SERVERS: readonly DevServerRule[] = [
  { bins: ['webpack', 'webpack-cli'], when: sub('serve', 'server', 's'), what: 'the webpack dev server' },
  {
    bins: ['webpack', 'webpack-cli'],
    when: (a) => hasFlag(a, '--watch', '-w'),
    what: 'webpack in watch mode',
  },
  { bins: ['webpack-dev-server'], what: 'the webpack dev server' },
  // `vite [root]`, `vite dev`, `vite serve`: the dev server; `vite preview` only previews a build.
  {
    bins: ['vite'],
    when: (a) => !['build', 'optimize'].includes(subcommand(a)),
    what: "Vite's dev server (or its preview)",
  },
  {
    bins: ['react-scripts', 'craco', 'react-app-rewired'],
    when: sub('start'),
    what: "Create React App's dev server",
  },
  { bins: ['ng'], when: sub('serve', 's', 'dev'), what: "the Angular CLI's dev server" },
  { bins: ['next'], when: sub('', 'dev'), what: "Next.js's dev server" },
  { bins: ['astro'], when: sub('dev', 'preview'), what: "Astro's dev server (or its preview)" },
  { bins: ['nuxt', 'nuxi'], when: sub('', 'dev', 'preview'), what: "Nuxt's dev server (or its preview)" },
  { bins: ['svelte-kit'], when: sub('dev', 'preview'), what: "SvelteKit's dev server" },
  { bins: ['remix'], when: sub('dev', 'vite:dev'), what: "Remix's dev server" },
  { bins: ['react-router'], when: sub('dev'), what: "React Router's dev server" },
  // `parcel index.html`, `parcel serve`, `parcel watch`: everything but `parcel build`.
  { bins: ['parcel'], when: (a) => subcommand(a) !== 'build', what: "Parcel's dev server" },
  { bins: ['nodemon', 'ts-node-dev', 'tsnd', 'node-dev', 'supervisor'], what: 'a restart-on-change watcher' },
  { bins: ['node'], when: (a) => hasFlag(a, '--watch', '--watch-path'), what: 'node in watch mode' },
  { bins: ['tsx', 'esno'], when: sub('watch'), what: 'tsx in watch mode' },
  { bins: ['tsc'], when: (a) => hasFlag(a, '--watch', '-w'), what: 'tsc in watch mode' },
  {
    bins: ['nest'],
    when: (a) => hasFlag(a, '--watch', '-w', '--debug', '-d'),
    what: 'the Nest CLI in watch mode',
  },
  { bins: ['gatsby'], when: sub('develop', 'serve'), what: "Gatsby's dev server (or its preview)" },
  { bins: ['docusaurus'], when: sub('start', 'serve'), what: "Docusaurus's dev server (or its preview)" },
  { bins: ['vue-cli-service'], when: sub('serve'), what: "Vue CLI's dev server" },
  { bins: ['vitepress', 'vuepress', 'rspress'], when: sub('', 'dev'), what: 'a docs dev server' },
  { bins: ['hexo'], when: sub('server', 's'), what: "Hexo's dev server" },
  { bins: ['docsify'], when: sub('serve', 's'), what: "docsify's dev server" },
  // `slidev`, `slidev slides.md`: the presenter's dev server; build, export, format and theme are not.
  {
    bins: ['slidev'],
    when: (a) => !['build', 'export', 'format', 'theme'].includes(subcommand(a)),
    what: "Slidev's dev server",
  },
  { bins: ['ember'], when: sub('serve', 's', 'server'), what: "Ember's dev server" },
  {
    bins: ['eleventy', '@11ty/eleventy'],
    when: (a) => hasFlag(a, '--serve', '--watch'),
    what: "Eleventy's dev server",
  },
  {
    bins: ['rsbuild', 'umi', 'quasar', 'vinxi', 'solid-start', 'snowpack'],
    when: sub('dev'),
    what: 'a dev server',
  },
  { bins: ['rspack'], when: sub('serve', 'dev', 's'), what: "Rspack's dev server" },
  { bins: ['nitro', 'nitropack'], when: sub('dev'), what: "Nitro's dev server" },
  { bins: ['farm', 'ice'], when: sub('', 'start', 'dev'), what: 'a dev server' },
  { bins: ['expo', 'react-native'], when: sub('start'), what: 'the Metro dev server' },
  { bins: ['storybook'], when: sub('dev'), what: "Storybook's dev server" },
  { bins: ['start-storybook'], what: "Storybook's dev server" },
  { bins: ['live-server', 'lite-server', 'browser-sync', 'wmr'], what: 'a live-reload dev server' },
  {
    bins: ['wrangler', 'vercel', 'netlify'],
    when: sub('dev'),
    what: "a hosting platform's local dev server",
  },
];

/** A dev server a script runs. */
export interface DevServer {
  /** The command, e.g. "webpack serve --open". */
  command: string;
  /** Its binary and arguments. */
  bin: string;
  args: readonly string[];
  /** What it is, e.g. "the webpack dev server". */
  what: string;
  /** The script it was found in when the script referred to another ("dev" for `npm run dev`). */
  script: string | null;
}

function match(command: ScriptCommand): DevServer | null {
  const rule = DEV_SERVERS.find((r) => r.bins.includes(command.bin) && (r.when?.(command.args) ?? true));
  return rule
    ? { command: command.text, bin: command.bin, args: command.args, what: rule.what, script: command.script }
    : null;
}

/** Watchers that only restart `node <file>` on change: nodemon, node-dev, supervisor, node --watch. */
const NODE_RESTARTERS = new Set(['nodemon', 'node-dev', 'supervisor', 'node']);

/**
 * The production twin of a watcher that restarts a plain JavaScript file: `nodemon server.js` →
 * `node server.js`. Null for anything else (ts-node-dev and tsx run TypeScript, `--exec` another
 * runner), and when no .js/.mjs/.cjs file is named.
 */
export function nodeEntryOf(dev: DevServer): string[] | null {
  if (!NODE_RESTARTERS.has(dev.bin)) return null;
  if (dev.args.some((a) => a === '--exec' || a === '-x' || a.startsWith('--exec='))) return null;
  const file = dev.args.find((a) => !a.startsWith('-') && /\.[cm]?js$/.test(a));
  return file ? ['node', file] : null;
}

/** The first dev server among the commands of a script text (following references to other scripts). */
export function devServerIn(script: string, scripts: Record<string, string>): DevServer | null {
  for (const command of scriptCommands(script, scripts)) {
    const found = match(command);
    if (found) return found;
  }
  return null;
}

/** The first dev server the script called `name` runs, or null. */
export function devServerOfScript(name: string, scripts: Record<string, string>): DevServer | null {
  for (const command of commandsOfScript(name, scripts)) {
    const found = match(command);
    if (found) return found;
  }
  return null;
}

/** "webpack serve --open, the webpack dev server" (with the script it came through, if any). */
export const describeDevServer = (dev: DevServer): string =>
  `${dev.command}, ${dev.what}${dev.script ? ` (via the "${dev.script}" script)` : ''}`;
