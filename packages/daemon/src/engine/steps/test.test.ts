import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { browserWrapper, findBrowser, wrapperScript } from './test-browser.ts';
import { needsChrome, recogniseStall } from './test.ts';

describe('recognising a runner that will not end', () => {
  it.each([
    // What real runners print when they watch or wait for a key.
    ['Watch Usage', 'watch', /Jest entered watch mode/],
    [' › Press q to quit watch mode.', 'watch', /waits for a key press \("Press q to quit"\)/],
    ['\u001b[1mWatch Usage: \u001b[22mPress w to show more.', 'watch', /Jest entered watch mode/],
    [' PASS  Waiting for file changes...', 'watch', /watches for changes/],
    ['       press h to show help, press q to quit', 'watch', /waits for a key press/],
    ['Watch mode enabled. Watching for file changes...', 'watch', /watches for changes/],
    ['Watch mode enabled.', 'watch', /Watch mode enabled/],
    ['[12:00:01] Watching for file changes.', 'watch', /watches for changes/],
    ['[mocha] waiting for changes...', 'watch', /watches for changes/],
    // Karma and friends without a browser.
    [
      '24 11 2026 20:16:18.697:ERROR [launcher]: No binary for Chrome browser on your platform.',
      'browser',
      /no binary for Chrome/,
    ],
    ['  Please, set "CHROME_BIN" env variable.', 'browser', /CHROME_BIN/],
    ['ERROR [launcher]: Cannot start ChromeHeadless', 'browser', /cannot start ChromeHeadless/],
    ['ERROR [launcher]: Can not find the binary /opt/chrome', 'browser', /cannot find the browser binary/],
    ['Error: spawn /usr/bin/google-chrome ENOENT', 'browser', /ENOENT/],
    ["Error: ENOENT: no such file or directory, access '/opt/chrome/chrome'", 'browser', /ENOENT/],
    ['Error: Could not find Chrome (ver. 120.0.6099.109).', 'browser', /Could not find Chrome/],
    [
      '[0101/000000.000:ERROR:zygote_host_impl_linux.cc(100)] Running as root without --no-sandbox is not supported.',
      'browser',
      /as root without --no-sandbox/,
    ],
    [
      "browserType.launch: Executable doesn't exist at /root/.cache/ms-playwright/chromium-1091/chrome",
      'browser',
      /Playwright/,
    ],
  ])('%s → %s', (line, kind, reason) => {
    const stall = recogniseStall(line);
    expect(stall?.kind).toBe(kind);
    expect(stall?.reason).toMatch(reason);
  });

  it.each([
    // Ordinary output of runs that end by themselves: never a reason to stop.
    ' RUN  v3.2.4 /app',
    ' ✓ src/sum.test.ts (2 tests) 3ms',
    ' Test Files  1 passed (1)',
    'PASS src/App.test.js',
    'Tests:       2 passed, 2 total',
    'Ran all test suites.',
    'Chrome Headless 156.0.0.0 (Linux 0.0.0): Executed 2 of 2 SUCCESS (0.041 secs / 0.032 secs)',
    'INFO [launcher]: Starting browser ChromeHeadless',
    'TOTAL: 2 SUCCESS',
    '  1 passing (4ms)',
    'ok 1 - watches the config file for changes',
    'Application bundle generation complete. [1.823 seconds]',
    // Test names that only mention the words.
    '  ✓ watching for file changes reloads the config (3 ms)',
    '  ✓ press q to quit closes the dialog',
    'ok 2 - handles ENOENT for a missing chrome profile',
    '    it shows the Watch Usage panel',
    '',
  ])('%j is not a stall', (line) => {
    expect(recogniseStall(line)).toBeNull();
  });

  it('knows a command that asks for Chrome', () => {
    expect(needsChrome(['npm', 'exec', '--no', '--', 'ng', 'test', '--browsers=ChromeHeadless'])).toBe(true);
    expect(needsChrome(['npm', 'run', 'test', '--', '--browsers=Firefox'])).toBe(false);
    expect(needsChrome(['npm', 'exec', '--no', '--', 'vitest', 'run'])).toBe(false);
  });
});

describe("the machine's browser", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-browser-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  /** A stand-in browser that prints the arguments it was started with. */
  const fakeBrowser = (dir: string, name: string): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, '#!/bin/sh\necho "args: $*"\n', { mode: 0o755 });
    return file;
  };

  it('is the first Chrome or Chromium on PATH, in order of preference, executables only', async () => {
    const a = tempDir();
    const b = tempDir();
    expect(await findBrowser([a, b].join(path.delimiter), '')).toBeNull();
    fs.writeFileSync(path.join(a, 'chromium'), 'not executable', { mode: 0o644 });
    const chrome = fakeBrowser(a, 'google-chrome');
    expect(await findBrowser([a, b].join(path.delimiter), '')).toBe(chrome);
    const chromium = fakeBrowser(b, 'chromium-browser');
    expect(await findBrowser([a, b].join(path.delimiter), '')).toBe(chromium);
    // The daemon's own CHROME_BIN wins when it names an executable.
    const own = fakeBrowser(tempDir(), 'my-chrome');
    expect(await findBrowser(a, own)).toBe(own);
    expect(await findBrowser(a, '/nowhere/chrome')).toBe(chrome);
  });

  it('runs through a Forge-owned wrapper with --no-sandbox and the runner’s own flags', async () => {
    const browser = fakeBrowser(tempDir(), "chro'mium");
    const dir = tempDir();
    const wrapper = await browserWrapper(dir, browser);
    expect(wrapper).toBe(path.join(fs.realpathSync(dir), 'chrome'));
    expect(fs.readFileSync(wrapper, 'utf8')).toBe(wrapperScript(browser));
    expect(execFileSync(wrapper, ['--headless', '--user-data-dir=/tmp/x'], { encoding: 'utf8' })).toBe(
      'args: --no-sandbox --headless --user-data-dir=/tmp/x\n',
    );
  });
});
