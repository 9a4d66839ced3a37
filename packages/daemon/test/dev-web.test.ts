import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, startTestApp, tempDir, upgradeStatus } from './helpers.ts';

afterEach(cleanup);

/** `run --dev`: Vite in middleware mode on the daemon's own server (a tiny root, no config file). */
describe('dev mode (Vite middleware)', () => {
  it('serves pages through Vite, keeps /api ours, and routes HMR upgrades to Vite after our checks', async () => {
    const root = tempDir('forge-vite-');
    fs.writeFileSync(
      path.join(root, 'index.html'),
      '<!doctype html><html><head></head><body>dev page</body></html>',
    );
    const app = await startTestApp({ web: { mode: 'dev', root, configFile: false } });

    const page = await fetch(`${app.url}/some/client/route`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('dev page');
    expect(html).toContain('/@vite/client');
    expect(page.headers.get('content-security-policy')).toBe("frame-ancestors 'self'");

    const api = await fetch(`${app.url}/api/nothing-here`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'NOT_FOUND' });

    expect((await upgradeStatus(`${app.url}/`, {}, ['vite-hmr'])).status).toBe(101);
    expect((await upgradeStatus(`${app.url}/`, { origin: 'http://evil.example' }, ['vite-hmr'])).status).toBe(
      403,
    );
    expect(
      (await upgradeStatus(`${app.url}/`, { headers: { host: 'evil.example' } }, ['vite-hmr'])).status,
    ).toBe(403);
    expect((await upgradeStatus(`${app.url}/ws`)).status).toBe(101);
  });
});
