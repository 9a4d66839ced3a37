import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write.ts';

/**
 * Lockfiles resolved against another registry (a mirror such as registry.npmmirror.com, a company
 * Artifactory): their `resolved` / tarball URLs name a host this machine may not reach. The same
 * tarball is on the registry Forge reaches at `<registry>/<name>/-/<file>.tgz`, which is what npm's
 * --replace-registry-host does for one host; this does it for any lockfile text (package-lock.json,
 * yarn.lock v1, pnpm-lock.yaml tarballs, bun.lock), touching nothing but those URLs.
 */

/** A registry tarball URL: `<scheme>://<host>[/<prefix>]/<name or @scope/name>/-/<file>.tgz`, with `#hash` left after it. */
const TARBALL_URL =
  /\bhttps?:\/\/([^/\s"'#,)\]]+)((?:\/[^/\s"'#,)\]]+)*?)\/((?:@[^/\s"'#,)\]]+\/)?[^/\s"'#,)\]@]+)\/-\/([^/\s"'#,)\]]+\.tgz)/g;

/** Hosts that serve the npm registry itself (registry.yarnpkg.com is its alias for Yarn). */
const NPM_HOSTS = new Set(['registry.npmjs.org', 'registry.yarnpkg.com']);

const hostOf = (url: string): string | null => {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
};

/** The hosts other than Forge's registry (and the npm registry's own names) that a lockfile's tarball URLs name. */
export function mirrorUrls(
  text: string,
  registry: string,
): { hosts: string[]; count: number; atRoot: boolean } {
  const own = hostOf(registry);
  const hosts: string[] = [];
  let count = 0;
  let atRoot = true;
  for (const m of text.matchAll(TARBALL_URL)) {
    const host = m[1]!;
    if (host === own || NPM_HOSTS.has(host)) continue;
    count++;
    if (m[2]) atRoot = false;
    if (!hosts.includes(host)) hosts.push(host);
  }
  return { hosts, count, atRoot };
}

/**
 * `text` with every tarball URL on one of `hosts` pointed at `registry` (same package, same file:
 * the integrity the lockfile records still checks it), and how many were rewritten.
 */
export function rewriteMirrorUrls(
  text: string,
  hosts: readonly string[],
  registry: string,
): { text: string; count: number } {
  const base = registry.endsWith('/') ? registry : `${registry}/`;
  let count = 0;
  const rewritten = text.replace(
    TARBALL_URL,
    (url, host: string, _prefix: string, name: string, file: string) => {
      if (!hosts.includes(host)) return url;
      count++;
      return `${base}${name}/-/${file}`;
    },
  );
  return { text: rewritten, count };
}

/** The text lockfiles whose URLs an install reads (bun.lockb is binary: not rewritten). */
const TEXT_LOCKFILES = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
];

/**
 * Point the install folder's lockfile at `registry` for the mirror `hosts`, in place (the lockfile
 * only; a re-upload brings the original back). Returns what was rewritten, or null when nothing was.
 */
export async function useReachableRegistry(
  installDir: string,
  hosts: readonly string[],
  registry: string,
  scratchDir: string,
): Promise<{ file: string; count: number } | null> {
  for (const name of TEXT_LOCKFILES) {
    const file = path.join(installDir, name);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    const rewritten = rewriteMirrorUrls(text, hosts, registry);
    if (rewritten.count === 0) return null;
    await writeFileAtomic(file, rewritten.text, { scratchDir });
    return { file: name, count: rewritten.count };
  }
  return null;
}
