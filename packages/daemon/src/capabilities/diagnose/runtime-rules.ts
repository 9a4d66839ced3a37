import fs from 'node:fs';
import path from 'node:path';
import {
  FRAMEWORK_OUTPUTS,
  foldersWrittenSince,
  isReportDir,
  writtenSites,
} from '../checks/written-output.ts';
import { formatCommand, formatDuration, type Diagnosis } from '@forge/shared';
import { listText, placeText, REPAIR_HINT, type Context } from './context.ts';
import { stripVersion } from '../package-name.ts';
import { namedByDependencies, unreachableRegistry } from './registry-rules.ts';

/**
 * Failures of the machine around the code rather than of the code: a step stopped at its time limit,
 * node_modules built for another platform, memory, the network, a port, an output folder.
 */

/** Commands that never end by themselves: a watcher or a dev server. */
const NEVER_ENDS =
  /(?:^|\s)(?:--watch|-w)(?:\s|=|$)|\b(?:vite|astro|nuxt|gatsby)(?:\s+dev)?\s*$|\b(?:next|vite|astro|nuxt|gatsby|remix)\s+dev\b|\bwebpack(?:-dev-server|\s+serve)\b|\breact-scripts\s+start\b|\bng\s+serve\b|\b(?:nodemon|live-server|http-server|browser-sync)\b|\bserve\s+-/;
/** A question waiting for an answer (npx, create-* tools, CLIs that ask before they act). */
const PROMPT =
  /\?\s*(?:\(y\/n\)|\(Y\/n\)|\(y\/N\)|\[y\/n\]|\[Y\/n\]|\(yes\/no\)|›.*)?\s*$|\bOk to proceed\?|\bPress (?:any key|Enter)\b|Need to install the following packages:/i;

/** TIMEOUT: the step ran past its time limit; says what it may have waited on. */
export async function timedOut(ctx: Context): Promise<Diagnosis | null> {
  const { status, error, step, blueprint } = ctx.input;
  if (status !== 'timed-out' && error.code !== 'STAGE_TIMEOUT') return null;
  const name = step ?? 'build';
  const limit = blueprint?.timeoutMs ? ` (${formatDuration(blueprint.timeoutMs)})` : '';
  const argv =
    name === 'install'
      ? blueprint?.install
      : name === 'preview'
        ? blueprint?.start
        : name === 'build'
          ? blueprint?.build
          : null;
  const command = argv ? formatCommand(argv) : undefined;
  // The script the command runs, when it runs one: "npm run build" → scripts.build.
  const scriptName =
    argv && argv.length >= 2 && /^(?:npm|pnpm|yarn|bun)$/.test(argv[0]!) ? argv.at(-1) : undefined;
  const script = scriptName ? await ctx.script(scriptName) : undefined;
  const lastLines = ctx.lines.filter((l) => l.trim() !== '').slice(-5);
  const prompt = lastLines.reverse().find((l) => PROMPT.test(l));
  let why: string;
  if (prompt)
    why = `It was waiting for an answer to a prompt: "${prompt.trim()}". Make the command non-interactive (pass its --yes or CI flag).`;
  else if ((command && NEVER_ENDS.test(command)) || (script && NEVER_ENDS.test(script))) {
    why = `It runs in watch or dev-server mode (${script ?? command}), which never ends: the ${name} command must exit when it is done.`;
  } else if (name === 'install') {
    why =
      'An install usually waits on a slow or unreachable registry or a long postinstall script; check the last lines of the log.';
  } else if (name === 'preview') {
    why =
      'The server did not answer in time: check that it listens on process.env.PORT and starts without waiting for input.';
  } else {
    why =
      'Check the last lines of the log for what it was doing; raise the limit with "timeout" in the forge config if the build is just slow.';
  }
  return {
    code: 'TIMEOUT',
    summary: `The ${name} step${command ? ` (${command})` : ''} ran past its time limit${limit} and was stopped.`,
    suggestion: why,
    subjects: [name],
  };
}

/** A native package for one platform, as npm's optional-dependency bug leaves it missing. */
const PLATFORM_PACKAGE =
  /(@[\w.-]+\/[\w.-]*(?:darwin|linux|win32|freebsd|android|wasm32)[\w.-]*|[\w.-]+[.-](?:darwin|linux|win32|freebsd|android)-(?:x64|arm64|ia32|arm)[\w.-]*)/;
const FOREIGN: { pattern: RegExp; why: string }[] = [
  { pattern: /invalid ELF header/, why: 'invalid ELF header' },
  { pattern: /wrong ELF class/, why: 'wrong ELF class' },
  { pattern: /is not a valid Win32 application/, why: 'a Windows binary' },
  {
    pattern: /mach-o file, but is an incompatible architecture|incompatible architecture \(have/,
    why: 'built for another architecture',
  },
  {
    pattern: /was compiled against a different Node\.js version|NODE_MODULE_VERSION \d+/,
    why: 'compiled for another Node.js version',
  },
  {
    pattern: /You installed esbuild for another platform than the one you're currently using/,
    why: "esbuild's binary is for another platform",
  },
  {
    pattern: /The package "(@esbuild\/[\w-]+)" could not be found, and is needed by esbuild/,
    why: "esbuild's platform package is missing",
  },
  {
    pattern: /Cannot find native binding|npm has a bug related to optional dependencies/,
    why: "the platform's native package is missing (npm's optional-dependency bug)",
  },
  {
    pattern: /Could not load the "sharp" module using the [\w-]+ runtime/,
    why: "sharp's binary is for another platform",
  },
];

/** FOREIGN_NODE_MODULES: native code in node_modules that this machine cannot load. */
export function foreignNodeModules(ctx: Context): Diagnosis | null {
  for (const line of ctx.lines) {
    const hit = FOREIGN.find((f) => f.pattern.test(line));
    const missing = /Cannot find module (?:'([^']{1,300})'|([@\w/.-]{1,300}?)(?:\.\s|\.?$|\s))/.exec(line);
    const platformPackage = PLATFORM_PACKAGE.exec(missing?.[1] ?? missing?.[2] ?? '')?.[1];
    if (!hit && !platformPackage) continue;
    // The package the binary belongs to: ".../node_modules/fast-hash/build/Release/x.node" → fast-hash.
    const owner = /node_modules\/((?:@[\w.-]+\/)?[\w.-]+)\/[^'"\s]*\.node\b/.exec(line)?.[1];
    const named = platformPackage ?? hit?.pattern.exec(line)?.[1] ?? owner;
    const why = hit?.why ?? "the platform's native package is missing (npm's optional-dependency bug)";
    return {
      code: 'FOREIGN_NODE_MODULES',
      summary: `node_modules holds native code this machine cannot load${named ? ` (${named})` : ''}: ${why}.`,
      suggestion: `Leave node_modules out of the upload (and a lockfile made on another OS, if installs keep missing platform packages) so the dependencies are installed for this machine. ${REPAIR_HINT}`,
      ...(named ? { subjects: [stripVersion(named)] } : {}),
      repair: 'DROP_FOREIGN_NODE_MODULES',
    };
  }
  return null;
}

const OOM: { pattern: RegExp; what: string }[] = [
  {
    pattern: /JavaScript heap out of memory|Reached heap limit|FATAL ERROR: .*Allocation failed/,
    what: 'JavaScript heap out of memory',
  },
  { pattern: /fatal error: runtime: out of memory/, what: 'a Go tool (esbuild) ran out of memory' },
  { pattern: /\bENOMEM\b|Cannot allocate memory/, what: 'the system could not allocate memory' },
  { pattern: /^(?:\S+: (?:line )?\d+:\s+)?\d*\s*Killed\b/, what: 'the process was killed' },
];

/** OUT_OF_MEMORY: the heap limit, the system's OOM killer (SIGKILL, exit 137). */
export function outOfMemory(ctx: Context): Diagnosis | null {
  let what = OOM.map((o) => (ctx.find(o.pattern) !== -1 ? o.what : null)).find(Boolean);
  if (!what && /\bkilled by SIGKILL\b|\bexited with code 137\b/.test(ctx.input.error.message)) {
    what = 'killed by SIGKILL, most likely by the system when memory ran out';
  }
  if (!what) return null;
  const step = ctx.input.step ?? 'build';
  return {
    code: 'OUT_OF_MEMORY',
    summary: `The ${step} ran out of memory (${what}).`,
    suggestion:
      'Give Node more heap with "env": { "NODE_OPTIONS": "--max-old-space-size=4096" } in the forge config, build fewer things at once (lower maxConcurrentBots), or make the build lighter (source maps off, fewer huge assets).',
  };
}

/**
 * What tools print when a host could not be reached, and how to read the host from it: Node's own
 * errors ("getaddrinfo ENOTFOUND host", "connect ECONNREFUSED 1.2.3.4:443", "request to <url>
 * failed"), git's through ssh and curl (npm, pnpm and Yarn 1 run `git ls-remote` for a git
 * dependency), bun's ("DNSResolveFailed downloading tarball x@github:user/repo"), Yarn Berry's
 * refusal to reach a git host (YN0080), and the fetches of fonts and schemas during a build.
 */
const NETWORK: { pattern: RegExp; host?: (m: RegExpExecArray) => string | undefined }[] = [
  { pattern: /getaddrinfo (?:ENOTFOUND|EAI_AGAIN|EAI_FAIL) ([\w.-]+)/ },
  { pattern: /connect (?:ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ECONNRESET) ([\w.:[\]-]+)/ },
  { pattern: /request to (https?:\/\/[^\s,'"]+) failed/ },
  { pattern: /ssh: Could not resolve hostname ([\w.-]+)/ },
  { pattern: /ssh: connect to host ([\w.-]+) port \d+/ },
  { pattern: /Could not resolve host: ([\w.-]+)/ },
  { pattern: /Failed to connect to ([\w.-]+) port \d+/ },
  { pattern: /unable to access '(https?:\/\/[^']+)'/ },
  {
    pattern:
      /\b(?:DNSResolveFailed|ConnectionRefused|ConnectionClosed|ConnectionTimedOut|ConnectionReset|NetworkUnreachable|HostUnreachable|Timeout|TLSHandshakeFailed) downloading (?:tarball|package manifest) (\S+)/,
    host: (m) => hostOfSpec(m[1]!),
  },
  { pattern: /Request to '(https?:\/\/[^']+)' has been blocked\b/ },
  { pattern: /Failed to fetch the engine file at (https?:\/\/[^\s,'"]+)/ },
  { pattern: /Failed to load schema from (https?:\/\/[^\s,'"]+)/ },
  {
    pattern: /Failed to fetch (?:font\b|`?[\w ]{1,60}`? from Google Fonts)/,
    host: () => 'fonts.googleapis.com',
  },
];

/** Git hosts of the package managers' shorthands ("github:user/repo", "gitlab:…", a bare "user/repo"). */
const GIT_SHORTHANDS: Readonly<Record<string, string>> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
  gist: 'gist.github.com',
};

/** The host a dependency spec fetches from: "x@git+https://host/…", "x@github:user/repo", "x@http://host:9/x.tgz". */
function hostOfSpec(spec: string): string | undefined {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  const value = at === -1 ? spec : spec.slice(at + 1);
  const url = /[a-z+]+:\/\/[^\s'"]+/i.exec(value)?.[0];
  if (url) return hostOf(url.replace(/^git\+/, ''));
  const shorthand = /^(github|gitlab|bitbucket|gist):/.exec(value)?.[1];
  if (shorthand) return GIT_SHORTHANDS[shorthand];
  return /^[\w.-]+\/[\w.-]+(?:#.*)?$/.test(value) ? 'github.com' : undefined;
}

/**
 * A download that was given up on for silence (Yarn 1's "<url>: ESOCKETTIMEDOUT", npm's "network
 * timeout at: <url>"): the host was reached, so the advice is about time, not about reaching it.
 */
const DOWNLOAD_TIMEOUTS: RegExp[] = [
  /(https?:\/\/[^\s'"]+): (?:ESOCKETTIMEDOUT|ETIMEDOUT)\b/,
  /network timeout at: (https?:\/\/[^\s'"]+)/,
];

function downloadTimedOut(ctx: Context): Diagnosis | null {
  for (const line of ctx.lines) {
    for (const pattern of DOWNLOAD_TIMEOUTS) {
      const url = pattern.exec(line)?.[1];
      if (!url) continue;
      const host = hostOf(url);
      const step = ctx.input.step === 'install' ? 'install' : 'build';
      return {
        code: 'NETWORK_AT_BUILD',
        summary: `The ${step} gave up waiting for ${host}: ${url} sent nothing for the package manager's network timeout.`,
        suggestion: `${host} was reached but answered too slowly (a slow proxy, a busy registry or machine): build again. If it keeps happening, give the package manager longer — network-timeout 600000 in the project's .yarnrc (Yarn 1; Forge already gives it 10 minutes unless the project sets its own), fetch-timeout=600000 in .npmrc (npm, pnpm).`,
        subjects: [host],
      };
    }
  }
  return null;
}

/**
 * NETWORK_AT_BUILD: the build (or install) needed a host this machine could not reach. When that host
 * is the registry itself (the project's .npmrc names one this machine cannot reach), the advice is about
 * the registry, not about depending on the registry.
 */
export async function networkAtBuild(ctx: Context): Promise<Diagnosis | null> {
  const slow = downloadTimedOut(ctx);
  if (slow) return slow;
  const hosts: string[] = [];
  let first = -1;
  ctx.lines.forEach((line, i) => {
    for (const { pattern, host: read } of NETWORK) {
      const m = pattern.exec(line);
      if (!m) continue;
      if (first === -1) first = i;
      const host = read ? read(m) : m[1] ? hostOf(m[1]) : undefined;
      if (host && !hosts.includes(host)) hosts.push(host);
    }
  });
  if (first === -1) return null;
  const fonts = hosts.includes('fonts.googleapis.com') || hosts.includes('fonts.gstatic.com');
  const found = ctx.first();
  const place =
    found?.location && !found.location.file.includes('node_modules/') ? found.location : undefined;
  const step = ctx.input.step === 'install' ? 'install' : 'build';
  const local = hosts.filter((h) => /^(?:127\.|localhost\b|\[?::1\]?)/.test(h));
  const where = hosts.length ? listText(hosts) : 'a host';
  const registry = step === 'install' ? await unreachableRegistry(ctx, hosts) : null;
  if (registry) {
    const at = registry.host ? ` at ${registry.host}` : '';
    return {
      code: 'NETWORK_AT_BUILD',
      summary: `The install could not reach the package registry${at} (${registry.evidence}).`,
      suggestion: `Installs fetch every package from the registry this machine is set to use (npm_config_registry, or registry= in the project's .npmrc)${registry.host ? `: check that ${registry.host} is the registry you mean and that this machine can reach it` : ': check that it is reachable from this machine'}, then build again.`,
      ...(registry.host ? { subjects: [registry.host] } : hosts.length ? { subjects: hosts } : {}),
    };
  }
  const unnamed: string[] = [];
  if (step === 'install') for (const h of hosts) if (!(await namedByDependencies(ctx, h))) unnamed.push(h);
  if (hosts.length > 0 && unnamed.length === hosts.length) {
    return {
      code: 'NETWORK_AT_BUILD',
      summary: `The install could not reach ${where}, which no dependency in package.json names: it is the registry the install was set to use, or a dependency of a dependency fetches from it.`,
      suggestion: `Check the registry the install uses (npm_config_registry, registry= in the project's .npmrc, Yarn's npmRegistryServer) and that this machine can reach ${where}; builds reach only the npm registry, so a dependency that fetches from another host cannot install here. Then build again.`,
      subjects: hosts,
    };
  }
  return {
    code: 'NETWORK_AT_BUILD',
    summary: `The ${step} needed the network and could not reach ${where}${place ? ` (${placeText(place)})` : ''}.`,
    ...(place
      ? { file: place.file, line: place.line, ...(place.column ? { column: place.column } : {}) }
      : {}),
    suggestion:
      step === 'install'
        ? `Builds reach only the npm registry, not ${where}: depend on the package as published on the registry rather than on a git URL or a tarball on another host (or keep its code in the project), then build again.`
        : local.length
          ? `A service the build expects on this machine (${listText(local)}: a database or an API) is not running; builds get no such services, so make the build work without it (or mock it when building).`
          : fonts
            ? 'Builds run without internet access: self-host the font (an @fontsource package, or next/font/local with the font files in the project) instead of fetching it from Google Fonts.'
            : 'Builds run without internet access: ship what the build downloads with the project (a schema file, a font, generated clients), or skip the download when offline.',
    ...(hosts.length ? { subjects: hosts } : {}),
  };
}

function hostOf(text: string): string {
  try {
    return new URL(text).host;
  } catch {
    return text.replace(/[.,:;)]+$/, '');
  }
}

/** PORT_IN_USE: the server could not listen ("EADDRINUSE", Vite's "Port 5173 is already in use"). */
export function portInUse(ctx: Context): Diagnosis | null {
  for (const line of ctx.lines) {
    const m =
      /address already in use (?:\S*?:)?(\d{1,5})\b/.exec(line) ??
      /\bPort (\d{1,5}) is (?:already )?in use/i.exec(line) ??
      (/\bEADDRINUSE\b/.test(line) ? (/:(\d{1,5})\b/.exec(line) ?? ['']) : null);
    if (!m) continue;
    const port = m[1];
    return {
      code: 'PORT_IN_USE',
      summary: `The app could not listen${port ? ` on port ${port}` : ''}: the port is already in use.`,
      suggestion: `Make the server listen on process.env.PORT (Forge gives every preview its own free port) instead of a fixed port${port ? `, or stop what holds ${port}` : ''}.`,
      ...(port ? { subjects: [port] } : {}),
    };
  }
  return null;
}

/**
 * OUTPUT_MISSING (and OUTPUT_NO_INDEX): the build finished without a site where it was expected. By
 * then the pipeline has looked for any index.html the build wrote; what is left to say is where the
 * build did write files — only folders it wrote in this run, never one the upload brought along.
 */
export async function outputMissing(ctx: Context): Promise<Diagnosis | null> {
  const { error, blueprint } = ctx.input;
  if (error.code !== 'OUTPUT_MISSING' && error.code !== 'OUTPUT_NO_INDEX') return null;
  const outputDir = blueprint?.outputDir ?? 'dist';
  const command = blueprint?.build ? formatCommand(blueprint.build) : 'The build';
  const found = await oneSiteWritten(ctx, outputDir);
  if (found) return found;
  if (error.code === 'OUTPUT_NO_INDEX') {
    return {
      code: 'OUTPUT_MISSING',
      summary: `${command} wrote "${outputDir}" but no index.html at its root: the preview would serve nothing at /.`,
      suggestion: `Make the build write the site's home page as "${outputDir}/index.html", or set "outputDir" in the forge config (forge.config.json) to the folder that holds the site's index.html.`,
      subjects: [outputDir],
    };
  }
  const absolute = ctx.abs(outputDir);
  const empty = isDir(absolute) && fs.readdirSync(absolute).length === 0;
  const since = ctx.input.stepStartedAt ?? null;
  const written =
    since === null
      ? []
      : await foldersWrittenSince(
          ctx.projectDir,
          FRAMEWORK_OUTPUTS.map((d) => path.posix.join(ctx.appDir, d)).filter((d) => d !== outputDir),
          since,
        );
  const where =
    written.length > 0
      ? `It wrote files to ${written.map((d) => `"${d}"`).join(', ')}, but no index.html there. `
      : since !== null
        ? 'It wrote no index.html anywhere in the project. '
        : '';
  return {
    code: 'OUTPUT_MISSING',
    summary: `${command} finished but its output folder "${outputDir}" is ${empty ? 'empty' : 'missing'}.`,
    suggestion: `${where}Make the build write the site (with its index.html) to "${outputDir}" (e.g. build.outDir in vite.config), or set "outputDir" in the forge config to the folder it writes.`,
    subjects: [outputDir, ...written],
  };
}

function isDir(absolute: string): boolean {
  try {
    return fs.statSync(absolute).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The build wrote exactly one site (a folder with an index.html at its root, written in this run,
 * not a report) that the output check did not take — deeper in the planned folder than a site's root
 * sits, as a config the plan could not read decided: that folder, named in forge.config.json, is the
 * output. The diagnosis points at the file whose setting the plan could not read. Two sites or none:
 * no repair, since which one is the site only the author knows.
 */
async function oneSiteWritten(ctx: Context, outputDir: string): Promise<Diagnosis | null> {
  const since = ctx.input.stepStartedAt ?? null;
  if (since === null) return null;
  const sites = (await writtenSites(ctx.projectDir, ctx.appDir, since)).filter((s) => !isReportDir(s.dir));
  if (sites.length !== 1 || sites[0]!.dir === outputDir) return null;
  const site = sites[0]!.dir;
  const decision = ctx.input.blueprint?.decisions.findLast((d) => d.field === 'outputDir');
  const decidedBy = decision?.file && decision.file !== 'forge.config.json' ? decision.file : undefined;
  return {
    code: 'OUTPUT_MISSING',
    summary:
      `The build wrote its site to "${site}" (${site}/index.html, written by this build), not to the planned "${outputDir}"` +
      (decidedBy ? `: ${decidedBy} decides the folder in a way Forge cannot read without running it.` : '.'),
    ...(decidedBy ? { file: decidedBy } : {}),
    suggestion: `Set "outputDir": "${site}" in forge.config.json, the one site this build wrote. ${REPAIR_HINT}`,
    subjects: [outputDir, site],
    repair: 'SET_OUTPUT_DIR',
  };
}
