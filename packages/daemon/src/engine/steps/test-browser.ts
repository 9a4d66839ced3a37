import { constants } from 'node:fs';
import { access, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Names Chrome and Chromium go by on Linux and macOS PATHs, in the order Forge prefers them. */
export const BROWSER_NAMES = [
  'chromium',
  'chromium-browser',
  'google-chrome-stable',
  'google-chrome',
  'chrome',
] as const;

const isExecutable = (file: string): Promise<boolean> =>
  access(file, constants.X_OK).then(
    () => true,
    () => false,
  );

/**
 * The machine's Chrome or Chromium, looked up when the tests run (a browser installed after Forge
 * started counts): the daemon's own CHROME_BIN when it names an executable, else the first of
 * BROWSER_NAMES on `searchPath`. Null when there is none.
 */
export async function findBrowser(
  searchPath: string | undefined,
  chromeBin: string | undefined = process.env.CHROME_BIN,
): Promise<string | null> {
  if (chromeBin && path.isAbsolute(chromeBin) && (await isExecutable(chromeBin))) return chromeBin;
  const dirs = (searchPath ?? '').split(path.delimiter).filter((dir) => path.isAbsolute(dir));
  for (const name of BROWSER_NAMES) {
    for (const dir of dirs) {
      const file = path.join(dir, name);
      if (await isExecutable(file)) return file;
    }
  }
  return null;
}

const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** The wrapper's text: exec the browser with --no-sandbox and whatever the runner passes. */
export const wrapperScript = (browser: string): string =>
  [
    '#!/bin/sh',
    "# Written by Forge for headless test runners (Karma, ng test): the machine's browser without its own",
    '# sandbox, which cannot start as root or inside the build sandbox (bubblewrap) Forge runs commands in.',
    `exec ${shellQuote(browser)} --no-sandbox "$@"`,
    '',
  ].join('\n');

/**
 * A Forge-owned CHROME_BIN in `dir` that runs `browser` with --no-sandbox: Karma's ChromeHeadless
 * launcher takes no flags from the command line, and Chromium refuses to start as root without it.
 * `dir` is a fresh folder of one test run, made visible to its sandbox (FORGE_HOME may sit under /tmp,
 * which the sandbox replaces): a project can only ever rewrite its own wrapper. Returns the real path.
 */
export async function browserWrapper(dir: string, browser: string): Promise<string> {
  const file = path.join(await realpath(dir), 'chrome');
  await writeFile(file, wrapperScript(browser), { mode: 0o755 });
  return file;
}
