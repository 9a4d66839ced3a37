import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Sandbox, waitForOutput } from './helpers.ts';
import { writeProject as writeFixture } from '@forge/testing';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await Sandbox.create();
});
afterEach(async () => {
  await sandbox.dispose();
});

describe('forge status', () => {
  it('shows the daemon, the current project and the fleet, as text and as JSON', async () => {
    expect((await sandbox.run(['daemon', 'start'])).code).toBe(0);
    const text = await sandbox.run(['status']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Forge \d+\.\d+\.\d+ at http:\/\/127\.0\.0\.1:\d+/);
    // A fresh home has the starter project "Forge", not built yet.
    expect(text.stdout).toContain('Project Forge: not built yet');
    expect(text.stdout).toContain('Bots: 25 online');
    const json = await sandbox.run(['status', '--json']);
    const parsed = JSON.parse(json.stdout) as { project: string; build: unknown; activities: unknown[] };
    expect(parsed).toMatchObject({ project: 'Forge', build: null });
    expect(parsed.activities).toHaveLength(4);
  });

  it('--watch prints again when a build changes, and stops on SIGINT', async () => {
    expect((await sandbox.run(['daemon', 'start'])).code).toBe(0);
    const watch = sandbox.spawn(['status', '--watch']);
    await waitForOutput(watch.stdout!, /Bots: 25 online/);
    const zip = writeFixture(sandbox.cwd, 'tested');
    const upload = await sandbox.run(['upload', zip, '--wait']);
    expect(upload.code, upload.stderr).toBe(0);
    await waitForOutput(watch.stdout!, /Project tested: build b\d+-\w+ succeeded, Integration Available/);
    const exited = new Promise<number | null>((resolve) => watch.once('exit', resolve));
    watch.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
