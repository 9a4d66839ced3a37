import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, startTestApp } from './helpers.ts';

afterEach(cleanup);

const setting = (url: string, body: Record<string, unknown>) =>
  fetch(`${url}/api/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('settings act on the daemon', () => {
  it('debugMode switches the daemon log to debug level and back', async () => {
    const app = await startTestApp({ logLevel: 'info' });
    const requestLines = () => app.logLines().filter((l) => l.msg === 'request').length;
    await fetch(`${app.url}/api/health`);
    expect(requestLines()).toBe(0);

    expect((await setting(app.url, { debugMode: true })).status).toBe(200);
    await fetch(`${app.url}/api/health`);
    await expect.poll(requestLines).toBeGreaterThan(0);

    expect((await setting(app.url, { debugMode: false })).status).toBe(200);
    const before = requestLines();
    await fetch(`${app.url}/api/health`);
    await fetch(`${app.url}/api/health`);
    expect(requestLines()).toBe(before);
  });

  it('debugMode stored on is in force after a restart', async () => {
    const first = await startTestApp({ logLevel: 'info' });
    await setting(first.url, { debugMode: true });
    const home = first.home;
    await first.stop();
    const second = await startTestApp({ home, logLevel: 'info' });
    await fetch(`${second.url}/api/health`);
    await expect.poll(() => second.logLines().some((l) => l.msg === 'request')).toBe(true);
  });
});
