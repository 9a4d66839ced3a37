import path from 'node:path';
import type { Diagnosis } from '@forge/shared';
import { skippedScriptsOf, type SkippedScript } from '../exec/skipped-scripts.ts';
import type { Context } from './context.ts';

/**
 * Folders a package's install script writes into node_modules under another name: Prisma's
 * postinstall generates its client into node_modules/.prisma/client.
 */
const WRITTEN_BY: Readonly<Record<string, string>> = { '.prisma': '@prisma/client' };

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The installed packages the failure's lines point into: stack frames and paths under node_modules. */
function packagesInFrames(lines: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const line of lines) {
    for (const m of line.matchAll(/node_modules\/((?:@[^/\s]+\/)?[^/\s:)'"]+)\//g)) {
      const dir = m[1]!;
      const written = WRITTEN_BY[dir.split('/')[0]!];
      found.add(written ?? dir);
    }
  }
  return found;
}

/**
 * INSTALL_SCRIPT_SKIPPED: npm did not run a dependency's install script (install scripts run only
 * when package.json's `allowScripts` approves them; the install step kept npm's list beside
 * node_modules), and the failure comes from that package: a frame in it or in what its script writes
 * (Prisma's generated client), or the error naming it. The script is named, and how to approve it;
 * nothing is approved on the project's behalf.
 */
export async function installScriptSkipped(ctx: Context): Promise<Diagnosis | null> {
  const nodeModules = ctx.abs(path.posix.join(ctx.installDir, 'node_modules'));
  const skipped = skippedScriptsOf(nodeModules);
  if (skipped.length === 0) return null;
  const inFrames = packagesInFrames(ctx.lines);
  const named = (s: SkippedScript) =>
    ctx.lines.some((line) => new RegExp(`(?:^|[\\s'"(\`])${escape(s.name)}(?=[\\s'"):\`]|$)`).test(line));
  const culprit = skipped.find((s) => inFrames.has(s.name)) ?? skipped.find(named);
  if (!culprit) return null;
  const line = ctx.first()?.firstLine.replace(/[.\s]+$/, '');
  const error = line ? `: "${line.length > 160 ? `${line.slice(0, 159)}…` : line}"` : '';
  const manifest = path.posix.join(ctx.installDir, 'package.json');
  return {
    code: 'INSTALL_SCRIPT_SKIPPED',
    summary: `npm did not run the install script of ${culprit.name}@${culprit.version} (${culprit.script}), and the ${ctx.input.step ?? 'build'} failed in what it would have made${error}.`,
    file: manifest,
    suggestion: `npm runs dependencies' install scripts only when package.json approves them: run npm install-scripts approve ${culprit.name} in the project (it adds "allowScripts": { "${culprit.name}@${culprit.version}": true } to ${manifest}), or add it there yourself, then upload again. Forge runs approved scripts inside the build's sandbox.`,
    subjects: [culprit.name, culprit.version, culprit.script],
  };
}
