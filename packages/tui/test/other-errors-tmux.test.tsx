/**
 * The real `forge tui` in tmux against a real daemon (autoRepair off) after a build of a real project
 * with several errors: the build pane lists the diagnosis' other errors as the CLI and the web do —
 * the counts, each with its file:line, repairable in the same pass or remaining.
 *
 * Needs tmux, the npm registry and the built CLI, daemon and dashboard (`pnpm build`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Build } from '@forge/shared';
import { SEVERAL_ERRORS_MAIN, severalErrors, startDaemon, writeZip, type TestDaemon } from '@forge/testing';
import { FORGE_BIN, skipReason, tmuxSession, type TmuxSession } from './tmux-session.ts';

if (skipReason) console.warn(`tmux test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('forge tui in tmux: a failure with several errors', () => {
  let daemon: TestDaemon | undefined;
  let cwd: string;
  let session: TmuxSession;
  const project = severalErrors('tui-slips');

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'forge-tui-others-'));
    // The three slips a repair fixes in one pass, and an import of a missing file no repair may touch.
    writeZip(cwd, `${project.name}.zip`, {
      ...project.files,
      // An import of a file that is not there: no repair may invent it.
      'src/main.ts': `${SEVERAL_ERRORS_MAIN}import { tax } from './tax'\napp.dataset.tax = String(tax)\n`,
    });
    daemon = await startDaemon();
    session = tmuxSession(join(cwd, 'tmux.sock'), () => daemon!);
    const res = await fetch(`${daemon.url}/api/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ autoRepair: false }),
    });
    expect(res.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    session?.kill();
    await daemon?.stop();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  }, 30_000);

  it("lists the other errors under ScanBot's line: which are repaired in the same pass, which remain", async () => {
    await session.start(cwd, 200, 50);
    session.type(`node ${FORGE_BIN} tui`);
    await session.waitForScreen('the dashboard', (text) => text.includes('Connected'));
    session.tmux('send-keys', '-t', 'forge', 'u');
    await session.waitForScreen('the upload prompt', (text) => text.includes('Upload ZIP ›'));
    session.type(`${project.name}.zip`);

    const shown = await session.waitForScreen(
      'the failed build with its other errors',
      (text) => /\d+ more errors: 2 repairable in the same pass, \d+ remains?/.test(text),
      300_000,
    );
    // The same counts as the daemon's record.
    const [build] = (await (
      await fetch(`${daemon!.url}/api/builds?project=${project.name}&limit=1`)
    ).json()) as Build[];
    const others = build!.diagnosis!.others!;
    const remain = others.filter((o) => !o.repair).length;
    expect(shown).toContain(
      `${others.length} more errors: 2 repairable in the same pass, ${remain} remain${remain === 1 ? 's' : ''}`,
    );
    expect(shown).toMatch(/│\s+repairable src\/main\.ts:1(:\d+)? src\/main\.ts imports/);
    expect(shown).toMatch(/│\s+repairable src\/main\.ts:2(:\d+)? src\/main\.ts imports/);
    expect(shown).toMatch(/│\s+remains src\/main\.ts:8(:\d+)? .*\[MISSING_FILE\]/);
    session.tmux('send-keys', '-t', 'forge', 'q');
  }, 360_000);
});
