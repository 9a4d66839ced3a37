import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PRIVATE_START_TIMEOUT_MS, startPrivateDaemon } from './private-daemon.ts';

// forge ci's own daemon, started from stand-in entries: one that takes its time before it listens
// (a busy CI runner), one that never says it listens, one that exits at once.
const dir = mkdtempSync(join(tmpdir(), 'forge-private-daemon-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function entry(name: string, source: string): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, source);
  return file;
}

describe('the private daemon of forge ci', () => {
  it('waits longer for its own child than an interactive start does (15 s)', () => {
    expect(PRIVATE_START_TIMEOUT_MS).toBeGreaterThan(15_000);
  });

  it('waits for a slow start, then answers with its URL', async () => {
    const slow = entry(
      'slow',
      "setTimeout(() => console.log('Forge is running at http://127.0.0.1:9'), 1500); setInterval(() => {}, 1000);\n",
    );
    const daemon = await startPrivateDaemon({ entry: slow, env: process.env, startTimeoutMs: 30_000 });
    try {
      expect(daemon.url).toBe('http://127.0.0.1:9');
    } finally {
      await daemon.stop({ force: true });
    }
  });

  it('gives up on a daemon that never listens, and says how long it waited', async () => {
    const silent = entry('silent', 'setInterval(() => {}, 1000);\n');
    const started = startPrivateDaemon({ entry: silent, env: process.env, startTimeoutMs: 1_000 });
    await expect(started).rejects.toMatchObject({
      message: 'The private Forge daemon did not start: it did not answer within 1 s',
    });
  });

  it('says so at once when the daemon exits before it listens', async () => {
    const dies = entry('dies', 'process.exit(3);\n');
    await expect(startPrivateDaemon({ entry: dies, env: process.env })).rejects.toMatchObject({
      message: 'The private Forge daemon did not start: it exited with code 3',
    });
  });
});
