import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import type { Diagnosis } from '@forge/shared';
import { listText, type Context } from './context.ts';
import { LOCKFILES } from '../repair/install-args.ts';
import { registryFor } from '../toolchains/registry.ts';
import { isValidPackageName } from '../package-name.ts';

/**
 * PACKAGE_NOT_ON_REGISTRY: the registry answered, and it has no such package or no such version — a
 * range no release matches, a name that was never published (or is private), a lockfile pinning a
 * version this registry lacks. Read from what npm 11, pnpm 10, Yarn 1, Yarn 2+ and Bun 1 print for a
 * 404 or an empty match. A host that could not be reached at all is NETWORK_AT_BUILD, never this:
 * every pattern here needs the registry's own answer (a 404, "no matching version").
 */

interface Missing {
  name: string;
  /** What was asked for: a range ("^9.9.9") or an exact version ("3.0.9"), when the output says. */
  spec: string | null;
  /** The registry has the package, but no version that matches (false: no such package at all). */
  versionMissing: boolean;
  /** The registry's host, when the output names it (its URL). */
  host: string | null;
  /** The package that asks for it, when the output says (Yarn 1's "required by"). */
  requiredBy: string | null;
  /** The newest release, when the package manager printed it (pnpm). */
  latest: string | null;
  /** Read from a 404 of a URL that is not a tarball: a registry's package document, if it is a registry's. */
  fromPackumentUrl?: boolean;
}

const hostOf = (url: string): string | null => {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
};

/** "is-odd@^9.9.9" → ["is-odd", "^9.9.9"]; "@scope/x" → ["@scope/x", null]. */
function splitSpec(text: string): [string, string | null] {
  const at = text.indexOf('@', 1);
  return at === -1 ? [text, null] : [text.slice(0, at), text.slice(at + 1) || null];
}

/**
 * What a registry URL asks for: a tarball `<registry>/<name>/-/<file>-<version>.tgz` (a version) or a
 * packument `<registry>/<name>` (the package), the name's "/" possibly escaped ("@scope%2fname").
 */
export function readRegistryUrl(
  url: string,
): Pick<Missing, 'name' | 'spec' | 'versionMissing' | 'host'> | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const parts = parsed.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const dash = parts.indexOf('-');
  if (dash !== -1) {
    const file = parts[dash + 1];
    const base = parts[dash - 1];
    if (!file || !base || !file.startsWith(`${base}-`) || !file.endsWith('.tgz')) return null;
    const scope = parts[dash - 2]?.startsWith('@') ? `${parts[dash - 2]}/` : '';
    const version = file.slice(base.length + 1, -'.tgz'.length);
    return { name: `${scope}${base}`, spec: version, versionMissing: true, host: parsed.host };
  }
  const last = parts.at(-1);
  if (!last) return null;
  const before = parts.at(-2);
  const name = last.includes('/') ? last : before?.startsWith('@') ? `${before}/${last}` : last;
  return { name, spec: null, versionMissing: false, host: parsed.host };
}

/** Every package or version the output says the registry does not have, in the order printed. */
function findMissing(ctx: Context): Missing[] {
  const found: Missing[] = [];
  const add = (m: Omit<Missing, 'requiredBy' | 'latest'> & Partial<Missing>) => {
    const same = found.find((f) => f.name === m.name && (f.spec === m.spec || !f.spec || !m.spec));
    if (same) {
      same.spec ??= m.spec;
      same.host ??= m.host;
      same.latest ??= m.latest ?? null;
      return;
    }
    found.push({ requiredBy: null, latest: null, ...m });
  };
  const lines = ctx.lines;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    // npm: "npm error notarget No matching version found for is-odd@^9.9.9."
    // pnpm: "ERR_PNPM_NO_MATCHING_VERSION  No matching version found for is-odd@^9.9.9 while fetching it from https://registry.npmjs.org/"
    const noMatch = /No matching version found for (\S+?)(?:\.$| while fetching it from (\S+))/.exec(line);
    if (noMatch) {
      const [name, spec] = splitSpec(noMatch[1]!);
      const near = lines.slice(i, i + 8).join('\n');
      const latest = /The latest release of \S+ is "([^"]+)"/.exec(near)?.[1] ?? null;
      add({ name, spec, versionMissing: true, host: noMatch[2] ? hostOf(noMatch[2]) : null, latest });
      continue;
    }
    // npm: "npm error 404 Not Found - GET https://registry.npmjs.org/@scope%2fname"; pnpm:
    // "ERR_PNPM_FETCH_404  GET https://…/x-3.0.9.tgz: Not Found - 404"; bun: "error: GET https://… - 404";
    // Yarn 1: 'error Error: https://…/x-3.0.9.tgz: Request failed "404 Not Found"'.
    const url =
      /\b404 Not Found - GET (https?:\/\/\S+)/.exec(line)?.[1] ??
      /ERR_PNPM_FETCH_404\]?\s+GET (https?:\/\/\S+?): Not Found - 404/.exec(line)?.[1] ??
      /\berror: GET (https?:\/\/\S+) - 404\b/.exec(line)?.[1] ??
      /(https?:\/\/\S+?): Request failed "404 Not Found"/.exec(line)?.[1];
    if (url) {
      const read = readRegistryUrl(url);
      if (read) {
        // npm names what it asked for beside the URL: "The requested resource 'x@^1.0.0' could not be found".
        const asked = lines
          .slice(i, i + 4)
          .map((l) => /The requested resource '([^']+)' could not be found/.exec(l)?.[1])
          .find(Boolean);
        const spec = asked && !read.versionMissing ? splitSpec(asked)[1] : read.spec;
        add({
          ...read,
          spec: spec && !/^https?:/.test(spec) ? spec : read.spec,
          fromPackumentUrl: !read.versionMissing,
        });
      }
      continue;
    }
    // Yarn 1.
    const yarnRange = /Couldn't find any versions for "([^"]+)" that matches "([^"]+)"/.exec(line);
    if (yarnRange) {
      add({ name: yarnRange[1]!, spec: yarnRange[2]!, versionMissing: true, host: null });
      continue;
    }
    const yarnPackage =
      /Couldn't find package "([^"]+)"(?: required by "([^"]+)")? on the "npm" registry/.exec(line);
    if (yarnPackage) {
      const [name, spec] = splitSpec(yarnPackage[1]!);
      add({ name, spec, versionMissing: false, host: null, requiredBy: yarnPackage[2] ?? null });
      continue;
    }
    // Yarn 2+: "YN0082: │ is-odd@npm:^9.9.9: No candidates found"; "YN0035: │ x@npm:3.0.9: Package not
    // found" with the URL asked for a few lines below ("Request URL: https://…").
    const berry = /\bYN0082: │ (\S+?)@npm:(\S+): No candidates found/.exec(line);
    if (berry) {
      add({ name: berry[1]!, spec: berry[2]!, versionMissing: true, host: null });
      continue;
    }
    const berry404 = /\bYN0035: │ (\S+?)@npm:(\S+): Package not found/.exec(line);
    if (berry404) {
      const requested = lines
        .slice(i + 1, i + 6)
        .map((l) => /Request URL: (https?:\/\/\S+)/.exec(l)?.[1])
        .find(Boolean);
      const read = requested ? readRegistryUrl(requested) : null;
      add({
        name: berry404[1]!,
        spec: berry404[2]!,
        versionMissing: read?.versionMissing ?? semver.valid(berry404[2]!) !== null,
        host: read?.host ?? null,
      });
      continue;
    }
    // bun: 'No version matching "^9.9.9" found for specifier "is-odd" (but package exists)'.
    const bun = /No version matching "([^"]+)" found for specifier "([^"]+)"/.exec(line);
    if (bun) add({ name: bun[2]!, spec: bun[1]!, versionMissing: true, host: null });
  }
  return found;
}

/** Where the install's registry settings are read: the project's .npmrc (Yarn 2+: .yarnrc.yml), then Forge's environment. */
async function registryHost(ctx: Context, name: string): Promise<string> {
  const pm = ctx.input.blueprint?.packageManager ?? 'npm';
  const scope = name.startsWith('@') ? name.split('/')[0] : null;
  for (const dir of [...new Set([ctx.installDir, '.'])]) {
    const npmrc = await ctx.readText(path.posix.join(dir, '.npmrc'), 64 * 1024);
    for (const key of [...(scope ? [`${scope}:registry`] : []), 'registry']) {
      const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const value = npmrc && new RegExp(`^\\s*${escaped}\\s*=\\s*(\\S+)`, 'm').exec(npmrc)?.[1];
      const host = value ? hostOf(value.replace(/^["']|["']$/g, '')) : null;
      if (host) return host;
    }
    if (pm === 'yarn') {
      const yarnrc = await ctx.readText(path.posix.join(dir, '.yarnrc.yml'), 64 * 1024);
      const value = yarnrc && /^npmRegistryServer:\s*["']?([^"'\s]+)/m.exec(yarnrc)?.[1];
      const host = value ? hostOf(value) : null;
      if (host) return host;
    }
  }
  const env = { ...process.env, ...ctx.input.blueprint?.env };
  const configured = registryFor(name, env);
  const host = hostOf(configured) ?? 'registry.npmjs.org';
  // Yarn asks the npm registry through its own alias unless told otherwise.
  return pm === 'yarn' && host === 'registry.npmjs.org' ? 'registry.yarnpkg.com' : host;
}

/** The project's lockfile that pins `name` at `version`, if one does. */
async function lockfilePinning(ctx: Context, name: string, version: string): Promise<string | null> {
  const pm = ctx.input.blueprint?.packageManager;
  const names = pm ? LOCKFILES[pm] : Object.values(LOCKFILES).flat();
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const v = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // "node_modules/is-odd": { "version": "3.0.9" (npm), "is-odd@3.0.9" (pnpm, bun), "is-odd@npm:3.0.9"
  // (Yarn 2+), "is-odd/-/is-odd-3.0.9.tgz" (a tarball URL: Yarn 1, npm's resolved).
  const pins = new RegExp(
    `(?<![\\w./@-])${escaped}@(?:npm:)?${v}(?![\\w.+-])|/${escaped}/-/[^/\\s"']+-${v}\\.tgz|"node_modules/${escaped}":\\s*\\{\\s*"version":\\s*"${v}"`,
  );
  for (const file of names) {
    const rel = path.posix.join(ctx.installDir, file);
    if (file.endsWith('.lockb')) continue;
    const text = await ctx.readText(rel);
    if (text && pins.test(text)) return rel;
  }
  return null;
}

/** npm's own registry hosts (registry.yarnpkg.com is its alias for Yarn). */
const NPM_HOSTS = new Set(['registry.npmjs.org', 'registry.yarnpkg.com']);

/**
 * Whether a 404 was a registry's answer about a package: always for a package manager's own words and
 * a tarball URL (`<name>/-/<name>-<version>.tgz` is a registry's shape); for another URL (a git host's
 * archive, a file on a web server) only when it is the registry's host, or the package is one the
 * project asks for by version.
 */
async function fromRegistry(ctx: Context, missing: Missing): Promise<boolean> {
  if (!missing.fromPackumentUrl) return true;
  if (!isValidPackageName(missing.name)) return false;
  if (
    missing.host &&
    (NPM_HOSTS.has(missing.host) || missing.host === (await registryHost(ctx, missing.name)))
  )
    return true;
  const declared = await ctx.declaration(missing.name);
  return declared !== null && semver.validRange(declared.spec) !== null;
}

/** The lockfiles the install folder has (project-relative). */
async function existingLockfiles(ctx: Context): Promise<string[]> {
  const found: string[] = [];
  for (const file of Object.values(LOCKFILES).flat()) {
    const rel = path.posix.join(ctx.installDir, file);
    if (fs.existsSync(ctx.abs(rel))) found.push(rel);
  }
  return found;
}

/** PACKAGE_NOT_ON_REGISTRY: the first package or version the registry said it does not have. */
export async function packageNotOnRegistry(ctx: Context): Promise<Diagnosis | null> {
  const all: Missing[] = [];
  for (const missing of findMissing(ctx)) if (await fromRegistry(ctx, missing)) all.push(missing);
  const first = all[0];
  if (!first) return null;
  const { name, spec, versionMissing } = first;
  const host = first.host ?? (await registryHost(ctx, name));
  const declared = await ctx.declaration(name);
  const own = (await ctx.ownNames()).has(name) || ctx.input.blueprint?.apps.some((a) => a.name === name);
  const exact = spec !== null && semver.valid(spec) !== null;
  const lockfile = exact && versionMissing ? await lockfilePinning(ctx, name, spec) : null;
  const what = versionMissing ? `${name}@${spec ?? '(the version asked for)'}` : name;
  const others = all.slice(1).map((m) => (m.spec ? `${m.name}@${m.spec}` : m.name));
  const also = others.length ? ` (and ${listText(others)})` : '';
  // Only pnpm prints the newest release beside its refusal; nothing else is said of which versions exist.
  const latest = first.latest ? ` pnpm reported ${first.latest} as its latest release.` : '';
  const lockfiles = await existingLockfiles(ctx);
  const updateLock = lockfiles.length ? `, and update ${listText(lockfiles)}` : '';
  const mirror = ctx.input.blueprint?.mirrorHosts?.length
    ? ` The lockfile was resolved against ${listText(ctx.input.blueprint.mirrorHosts)}, whose packages Forge fetches from ${host}: a version published only there is not on ${host}.`
    : '';
  const check = `Run \`npm view ${name} versions\` to see which versions ${host} has`;

  let summary: string;
  let suggestion: string;
  let file: string | undefined;
  if (own) {
    summary = `The install asked ${host} for ${what}, which is a package of this project itself, not one on the registry.`;
    file = declared?.file;
    suggestion = `Let the package manager link the project's own package instead of fetching it: depend on it as "workspace:*" (pnpm, Yarn, Bun) or list its folder in "workspaces" (npm)${declared ? ` in ${declared.file}` : ''}.`;
  } else if (!versionMissing) {
    const by = first.requiredBy ? ` (${first.requiredBy} depends on it)` : '';
    summary = `${host} has no package named ${name}${by}${also}: the install cannot fetch it (it is not published there, or it is private).`;
    file = declared?.file;
    suggestion = `Check the name${declared ? ` in ${declared.file} (${declared.field}: "${name}": "${declared.spec}")` : ''}: a misspelt or renamed package is not on the registry. If it is a private package, Forge's builds have no registry credentials: publish it where the build can fetch it, or keep its code in the project.`;
  } else if (lockfile) {
    const asks = declared ? ` (${declared.file} asks for ${declared.spec})` : '';
    summary = `${lockfile} pins ${name} ${spec}${asks}, and ${host} has no such version${also}.`;
    file = lockfile;
    suggestion = `${check}, then update ${lockfile} to one of them where you build (reinstall or update ${name}) and upload it again.${latest}${mirror}`;
  } else if (declared && (declared.spec === spec || spec === null)) {
    summary = `${declared.file} asks for ${name}@${declared.spec}, and ${host} has no version that matches${also}.`;
    file = declared.file;
    suggestion = `${check}, set ${declared.field}."${name}" in ${declared.file} to a range one of them satisfies${updateLock}.${latest}`;
  } else {
    const by = first.requiredBy
      ? `${first.requiredBy} asks for it`
      : declared
        ? `${declared.file} asks for ${declared.spec}; the lockfile or another dependency asks for this`
        : 'a dependency asks for it';
    summary = `${host} has no version of ${name} that matches ${spec ?? 'what the install asked for'} (${by})${also}.`;
    file = declared?.file;
    suggestion = `${check}; then update the package that asks for it (or pin ${name} to a published version with "overrides" / "resolutions" in package.json)${updateLock}.${latest}${mirror}`;
  }
  return {
    code: 'PACKAGE_NOT_ON_REGISTRY',
    summary,
    ...(file ? { file } : {}),
    suggestion,
    subjects: [spec && versionMissing ? `${name}@${spec}` : name, host],
  };
}

/**
 * The registry an install could not reach, when the output shows it was the registry (not a git host
 * or a tarball URL of one dependency): a package's metadata or tarball URL for a dependency the
 * project asks for by version ("request to http://10.0.0.5:4873/is-odd failed"), bun's "…downloading
 * package manifest is-odd", or a host the project's registry settings name. `host` is null when the
 * output does not say which registry (bun).
 */
export async function unreachableRegistry(
  ctx: Context,
  hosts: readonly string[],
): Promise<{ host: string | null; evidence: string } | null> {
  for (const line of ctx.lines) {
    const url =
      /request to (https?:\/\/[^\s,'"]+) failed/.exec(line)?.[1] ??
      /ERR_PNPM_META_FETCH_FAIL\]?\s+GET (https?:\/\/\S+?):/.exec(line)?.[1];
    const read = url ? readRegistryUrl(url) : null;
    if (read?.host && hosts.includes(read.host)) {
      // A dependency the project asks for by version is fetched from the registry, whatever host serves it.
      const declared = await ctx.declaration(read.name);
      if (declared && semver.validRange(declared.spec) !== null)
        return { host: read.host, evidence: `it asked it for ${read.name}` };
    }
    const manifest = /downloading package manifest (\S+)/.exec(line)?.[1];
    if (manifest && /^(?:@[\w.-]+\/)?[\w.-]+$/.test(manifest)) {
      return { host: null, evidence: `bun could not download the package manifest of ${manifest}` };
    }
  }
  for (const host of hosts) {
    if ((await registryHost(ctx, '')) === host)
      return { host, evidence: "the project's registry setting names it" };
  }
  return null;
}

/** Hosts of the git shorthands a dependency spec may use ("github:user/repo", a bare "user/repo"). */
const GIT_HOSTS = new Set([
  'github.com',
  'codeload.github.com',
  'gist.github.com',
  'gitlab.com',
  'bitbucket.org',
]);

/**
 * Whether a dependency spec of the project's package.json files names `host` (a git URL, a tarball
 * URL), or the host is a git host whose shorthands a spec may use. When none does, the host was the
 * registry the install used or came from a dependency of a dependency, and advice about the
 * project's own dependency specs would not be true of its files.
 */
export async function namedByDependencies(ctx: Context, host: string): Promise<boolean> {
  if (GIT_HOSTS.has(host)) return true;
  for (const pkg of await ctx.packages()) {
    for (const { spec } of pkg.specs.values()) if (spec.includes(host)) return true;
  }
  return false;
}
