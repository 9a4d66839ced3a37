import fs from 'node:fs';
import path from 'node:path';

/**
 * npm (from 11.19) no longer runs the install scripts of dependencies unless the project's
 * package.json approves them (`allowScripts`); an install then ends with the list of the packages it
 * skipped:
 *
 *   npm warn install-scripts 6 packages have install scripts not yet covered by allowScripts:
 *   npm warn install-scripts   @prisma/client@4.16.2 (postinstall: node scripts/postinstall.js)
 *
 * The list is kept beside the install (node_modules/.forge-skipped-scripts.json) so that a later
 * failure — a Prisma client never generated, a native addon never built — is explained by the script
 * that did not run, whichever step it shows in.
 */
export interface SkippedScript {
  /** The package's name: `@prisma/client`. */
  name: string;
  version: string;
  /** The script npm did not run: `postinstall: node scripts/postinstall.js`. */
  script: string;
}

export const SKIPPED_SCRIPTS_FILE = '.forge-skipped-scripts.json';

const HEADER = /install scripts not yet covered by allowScripts:\s*$/;
const ENTRY = /^\s*(?:npm warn install-scripts)?\s+((?:@[^\s@/]+\/)?[^\s@/]+)@(\S+) \(([^)]+)\)\s*$/;

/** The packages whose install scripts npm says it skipped, from the install's output lines. */
export function readSkippedScripts(lines: readonly string[]): SkippedScript[] {
  const found: SkippedScript[] = [];
  let inList = false;
  for (const line of lines) {
    if (HEADER.test(line)) {
      inList = true;
      continue;
    }
    if (!inList) continue;
    const m = ENTRY.exec(line);
    if (m) found.push({ name: m[1]!, version: m[2]!, script: m[3]! });
    else inList = false;
  }
  return found;
}

export function writeSkippedScripts(nodeModules: string, skipped: readonly SkippedScript[]): void {
  const file = path.join(nodeModules, SKIPPED_SCRIPTS_FILE);
  if (skipped.length === 0) fs.rmSync(file, { force: true });
  else fs.writeFileSync(file, `${JSON.stringify(skipped, null, 2)}\n`);
}

/** What the last install of `nodeModules` skipped (empty when it skipped nothing or is unknown). */
export function skippedScriptsOf(nodeModules: string): SkippedScript[] {
  try {
    const parsed = JSON.parse(
      fs.readFileSync(path.join(nodeModules, SKIPPED_SCRIPTS_FILE), 'utf8'),
    ) as unknown;
    return Array.isArray(parsed)
      ? parsed.filter(
          (s): s is SkippedScript =>
            typeof s?.name === 'string' && typeof s?.version === 'string' && typeof s?.script === 'string',
        )
      : [];
  } catch {
    return [];
  }
}
