import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../src/features/web-app/serve-web.ts';
import { cleanup, startTestApp, tempDir } from './helpers.ts';

afterEach(cleanup);

const BOOT = "const socket = new WebSocket('ws://' + location.host + '/ws');";
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** A built web root as packages/web's build leaves it: the dashboard's page and the other screens'. */
async function webApp() {
  const root = tempDir('forge-web-');
  fs.mkdirSync(`${root}/assets`);
  fs.writeFileSync(
    `${root}/index.html`,
    `<!doctype html><head><script>${BOOT}</script>` +
      `<script type="module" crossorigin src="/assets/index-abc12345.js"></script></head>` +
      `<body><div id="root"><main data-boot-shell>first frame</main></div></body>`,
  );
  fs.writeFileSync(
    `${root}/app.html`,
    `<!doctype html><head><script>${BOOT}</script></head><body><div id="root"></div></body>`,
  );
  fs.writeFileSync(`${root}/assets/index-abc12345.js`, 'void 0');
  const app = await startTestApp({ web: { mode: 'static', root } });
  return { root, app };
}

const page = (port: number, path: string) =>
  fetch(`http://127.0.0.1:${port}${path}`, { headers: { accept: 'text/html' } });

describe("the web app's first frame", () => {
  it('answers "/" with the page that holds the first frame, every other page path with app.html', async () => {
    const { app } = await webApp();

    const home = await page(app.port, '/');
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('data-boot-shell');

    for (const path of ['/settings', '/university/teams', '/no/such/screen']) {
      const other = await page(app.port, path);
      expect(other.status, path).toBe(200);
      const html = await other.text();
      expect(html, path).toContain('<div id="root"></div>');
      expect(html, path).not.toContain('data-boot-shell');
    }
  });

  it("allows exactly the page's inline script by its hash, and no other inline script", async () => {
    const { app } = await webApp();
    for (const path of ['/', '/settings']) {
      const csp = (await page(app.port, path)).headers.get('content-security-policy')!;
      const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src '));
      expect(scriptSrc, path).toBe(`script-src 'self' ${sha(BOOT)}`);
    }
  });

  it('follows a rebuilt page: the new inline script is allowed, the old one no longer', async () => {
    const { root, app } = await webApp();
    await page(app.port, '/');
    const next = `${BOOT} /* rebuilt */`;
    // A different size, so the change shows even within the file system's mtime resolution.
    fs.writeFileSync(`${root}/index.html`, `<!doctype html><script>${next}</script>`);
    const csp = (await page(app.port, '/')).headers.get('content-security-policy')!;
    expect(csp).toContain(sha(next));
    expect(csp).not.toContain(sha(BOOT));
  });

  it('falls back to index.html for every page path when the build has no app.html (an older build)', async () => {
    const { root, app } = await webApp();
    fs.rmSync(`${root}/app.html`);
    const res = await page(app.port, '/settings');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('data-boot-shell');
  });
});

describe('inlineScriptHashes', () => {
  it('hashes the text of each inline script, and leaves scripts with a src and empty ones out', () => {
    const html =
      `<script>a()</script><script type="module" async>b()</script>` +
      `<script src="/x.js"></script><script type="module" src="/y.js"></script><script></script>`;
    expect(inlineScriptHashes(html)).toEqual([sha('a()'), sha('b()')]);
  });
});
