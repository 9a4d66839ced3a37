import path from 'node:path';
import semver from 'semver';
import { installTool, isBerryInstall } from './install-args.ts';
import type { RepairTarget } from './types.ts';

/** Time one registry look-up may take. */
const LOOKUP_TIMEOUT_MS = 60_000;

export type VersionLookup =
  { ok: true; version: string } | { ok: false; missing: true } | { ok: false; missing: false; why: string };

/** What a package manager prints when the registry has no such package. */
const NOT_FOUND =
  /\bE404\b|\b404\b|Package not found|\bYN0035\b|: Not found\b|Received invalid response from npm/i;
/** Registry unreachable: said as such rather than as "no such package". */
const UNREACHABLE = /ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|getaddrinfo|network/i;

/**
 * The command that asks the project's own package manager for the newest version of `name`:
 * `npm view`, `pnpm view`, `yarn info` (Yarn 1), `yarn npm info` (Berry). bun has no stable
 * command for it across its versions, and reads the same registry as npm: npm (which ships with
 * Node) asks for it.
 */
export function versionCommand(target: RepairTarget, name: string): string[] {
  const bp = target.blueprint;
  const tool = bp.packageManager ?? installTool(bp.install ?? []) ?? 'npm';
  switch (tool) {
    case 'pnpm':
      return ['pnpm', 'view', name, 'version'];
    case 'yarn': {
      const berry = bp.toolchain?.package === '@yarnpkg/cli-dist' || isBerryInstall(bp.install ?? []);
      return berry
        ? ['yarn', 'npm', 'info', name, '--fields', 'version', '--json']
        : ['yarn', 'info', name, 'version', '--silent'];
    }
    case 'npm':
    case 'bun':
      return ['npm', 'view', name, 'version'];
  }
}

/** The version in a line of `view`/`info` output: `1.9.3`, `"1.9.3"` or `{"version":"1.9.3"}`. */
function versionIn(line: string): string | null {
  const text = line.trim();
  const json = /^\{.*"version"\s*:\s*"([^"]+)".*\}$/.exec(text)?.[1];
  const candidate = json ?? text.replace(/^"(.*)"$/, '$1');
  return semver.valid(candidate);
}

/** The newest version of `name` on the registry the project installs from, as its package manager says. */
export async function resolveVersion(target: RepairTarget, name: string): Promise<VersionLookup> {
  const argv = versionCommand(target, name);
  const lines: { stream: 'stdout' | 'stderr'; text: string }[] = [];
  const result = await target.run({
    argv,
    // The install folder: its .npmrc / .yarnrc name the registry the project installs from.
    cwd: path.join(target.projectDir, target.blueprint.installDir),
    env: target.blueprint.env,
    timeoutMs: LOOKUP_TIMEOUT_MS,
    onLine: (text, stream) => lines.push({ stream, text }),
  });
  const command = argv.slice(0, argv.indexOf(name)).join(' ');
  if (result.outcome === 'cancelled') return { ok: false, missing: false, why: 'the look-up was cancelled' };
  if (result.outcome === 'timed-out') {
    return { ok: false, missing: false, why: `${command} ${name} did not answer in time` };
  }
  if (result.outcome === 'succeeded') {
    for (const line of lines) {
      const version = line.stream === 'stdout' ? versionIn(line.text) : null;
      if (version) return { ok: true, version };
    }
  }
  // Yarn 1 says a missing package this way, and exits 0.
  const text = lines.map((l) => l.text);
  if (text.some((l) => NOT_FOUND.test(l))) return { ok: false, missing: true };
  const unreachable = text.find((l) => UNREACHABLE.test(l));
  if (unreachable) {
    return { ok: false, missing: false, why: `the registry could not be reached (${unreachable.trim()})` };
  }
  if (result.outcome === 'succeeded')
    return { ok: false, missing: false, why: `${command} ${name} printed no version` };
  const why =
    result.error ??
    text.find((l) => /\berror\b/i.test(l))?.trim() ??
    `${command} ${name} exited with code ${result.exitCode}`;
  return { ok: false, missing: false, why };
}
