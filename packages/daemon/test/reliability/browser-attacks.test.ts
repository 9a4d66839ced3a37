import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ErrorBody, routes, UploadExtensionResponse, type RouteContract } from '@forge/shared';
import { makeZip } from '@forge/testing';
import { startStaticPreview } from '../../src/capabilities/preview/static-server.ts';
import { cleanup, onCleanup, startTestApp, tempDir, upgradeStatus, type TestApp } from '../helpers.ts';
import { ATTACK_PAGE, attackScript, hasChromium, launchChromium, type AttackResult } from './chromium.ts';

/**
 * Browser attacks on the daemon (docs/reliability.md#browser-attacks): every state-changing route of the
 * shared route table, by every unsafe method, from hostile Origins and through DNS-rebinding Host names, is
 * refused before it runs; /ws refuses cross-site upgrades; a page on a preview or extension origin in real
 * Chromium can neither change nor read anything; JSON routes refuse the body types a page can send without a
 * CORS preflight. Unit cases of the policy itself live in src/http/security.test.ts and the single-route
 * cases in test/security.test.ts; this file is the matrix.
 */

afterEach(cleanup);

// ---------------------------------------------------------------------------------------------
// The routes under attack, derived from the shared table: a new route is covered automatically.

interface TargetRoute {
  name: string;
  method: string;
  path: string;
  multipart: string | null;
}

const STATE_CHANGING: TargetRoute[] = Object.entries(routes as Record<string, RouteContract>)
  .filter(([, r]) => r.method !== 'GET' || r.multipart !== undefined)
  .map(([name, r]) => ({
    name,
    method: r.method,
    // Path parameters get a plausible value: the route would match and run if the checks let it.
    path: r.path.replace(/:[^/]+/g, 'probe'),
    multipart: r.multipart?.field ?? null,
  }));

const UNSAFE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** A tiny static site: uploaded, it would become a project with a build. */
const SITE_ZIP = makeZip({ 'index.html': '<!doctype html><h1>planted</h1>' });

/**
 * Bodies that would change state if a route ran them (checked by the positive controls below);
 * routes not listed get `{}`, which is enough: the checks run before any body is read.
 */
const PROBE_BODIES: Record<string, unknown> = {
  updateSetting: { debugMode: true },
};

const BOUNDARY = '----forge-attack-boundary';
function multipartBody(field: string, fileName: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
        'Content-Type: application/zip\r\n\r\n',
    ),
    data,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

function probeOf(route: TargetRoute): { type: string; body: Buffer } {
  if (route.multipart !== null) {
    return {
      type: `multipart/form-data; boundary=${BOUNDARY}`,
      body: multipartBody(route.multipart, 'site.zip', SITE_ZIP),
    };
  }
  return { type: 'application/json', body: Buffer.from(JSON.stringify(PROBE_BODIES[route.name] ?? {})) };
}

// ---------------------------------------------------------------------------------------------
// Raw HTTP with any Host/Origin (fetch forbids Host), over a keep-alive agent so the matrix is quick.

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(
  agent: http.Agent,
  port: number,
  method: string,
  target: string,
  headers: Record<string, string | undefined>,
  body?: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
    if (body) clean['content-length'] = String(body.length);
    const req = http.request(
      { host: '127.0.0.1', port, method, path: target, headers: clean, agent, setHost: !('host' in clean) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Run `tasks` with at most `limit` in flight. */
async function pool<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

const codeOf = (answer: Answer): string | undefined => {
  try {
    return ErrorBody.parse(JSON.parse(answer.body)).code;
  } catch {
    return undefined;
  }
};

const corsHeaders = (headers: http.IncomingHttpHeaders): string[] =>
  Object.keys(headers).filter((h) => h.startsWith('access-control-'));

// ---------------------------------------------------------------------------------------------
// "Nothing changed": every table of the store and every file of FORGE_HOME (but the store's own).

function homeFiles(home: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(home, full);
      if (entry.isDirectory()) walk(full);
      else if (!/^forge\.db(-wal|-shm|-journal)?$/.test(rel)) {
        out[rel] = crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex');
      }
    }
  };
  walk(home);
  return out;
}

function snapshot(app: TestApp) {
  const tables = app.store.db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all() as Array<{ name: string }>;
  const rows = Object.fromEntries(
    tables.map(({ name }) => [name, app.store.db.prepare(`SELECT * FROM "${name}"`).all()]),
  );
  return { rows, files: homeFiles(app.home), sockets: app.forge.hub.clientCount };
}

/**
 * Two versions of an extension named "probe" (the value every `:param` of the matrix gets), so
 * `DELETE /api/extensions/probe` and `POST /api/extensions/probe/rollback` would change something.
 */
async function installProbeExtension(app: TestApp): Promise<void> {
  for (const version of ['1.0.0', '1.1.0']) {
    const manifest = {
      name: 'probe',
      displayName: 'Probe',
      route: '/ext/probe',
      version,
      entry: 'index.html',
    };
    const form = new FormData();
    const zip = makeZip({
      'forge-extension.json': JSON.stringify(manifest),
      'index.html': `<h1>${version}</h1>`,
    });
    form.set(routes.uploadExtension.multipart.field, new Blob([zip]), 'probe.zip');
    const res = await fetch(`${app.url}${routes.uploadExtension.path}`, { method: 'POST', body: form });
    expect(res.status, await res.clone().text()).toBe(200);
    UploadExtensionResponse.parse(await res.json());
  }
}

const extensionVersion = async (app: TestApp) => {
  const list = (await (await fetch(`${app.url}${routes.extensions.path}`)).json()) as Array<{
    version: string;
  }>;
  return list.map((e) => e.version);
};

// ---------------------------------------------------------------------------------------------

describe('the refusal matrix: every state-changing route × method × hostile Origin / Host', () => {
  it('covers every non-GET and multipart route of the shared table', () => {
    const expected = Object.entries(routes as Record<string, RouteContract>)
      .filter(([, r]) => r.method !== 'GET' || r.multipart)
      .map(([name]) => name);
    expect(STATE_CHANGING.map((r) => r.name)).toEqual(expected);
    // Sanity: the table really has state-changing routes of every kind the matrix claims to cover.
    expect(STATE_CHANGING.filter((r) => r.multipart !== null).length).toBeGreaterThanOrEqual(2);
    expect(new Set(STATE_CHANGING.map((r) => r.method))).toEqual(new Set(['POST', 'PUT', 'DELETE']));
  });

  it('refuses each with 403 ORIGIN_NOT_ALLOWED / HOST_NOT_ALLOWED, grants no CORS, and changes nothing', async () => {
    const app = await startTestApp();
    const { port } = app;
    const own = `127.0.0.1:${port}`;
    // A real preview origin: another loopback port on this machine, as a preview or an extension has.
    const preview = await startStaticPreview({ root: tempDir('forge-preview-origin-') });
    onCleanup(() => preview.close());
    // Something for the DELETE and rollback probes to destroy, so "unchanged" covers them too.
    await installProbeExtension(app);
    const before = snapshot(app);

    const hostileOrigins = [
      'http://evil.example',
      'null',
      'http://192.168.1.5:4317',
      `http://127.0.0.2:${port}`,
      preview.url,
      `https://127.0.0.1:${port}`,
      `http://localhost.evil.example:${port}`,
      `http://127.0.0.1:${port}.evil.example`,
    ];
    const hostileHosts = [
      'evil.example',
      `evil.example:${port}`,
      `localtest.me:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `localhost.:${port}`,
      `192.168.1.5:${port}`,
      `10.0.0.1:${port}`,
      `0.0.0.0:${port}`,
      `[::ffff:127.0.0.1]:${port}`,
      `127.0.0.1:${port + 1}`,
      'localhost:1',
    ];

    interface Case {
      route: TargetRoute;
      method: string;
      host: string;
      origin: string | undefined;
      expected: 'ORIGIN_NOT_ALLOWED' | 'HOST_NOT_ALLOWED';
    }
    const cases: Case[] = [];
    for (const route of STATE_CHANGING) {
      for (const method of UNSAFE_METHODS) {
        for (const origin of hostileOrigins)
          cases.push({ route, method, host: own, origin, expected: 'ORIGIN_NOT_ALLOWED' });
        // A rebinding page sends its own (foreign) Origin; the CLI-like "no Origin" and even the
        // daemon's own Origin must not help a foreign Host either.
        for (const host of hostileHosts) {
          for (const origin of [undefined, `http://${host}`, `http://${own}`])
            cases.push({ route, method, host, origin, expected: 'HOST_NOT_ALLOWED' });
        }
      }
    }

    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    onCleanup(() => agent.destroy());
    const started = performance.now();
    const answers = await pool(
      cases.map((c) => () => {
        const probe = probeOf(c.route);
        const body = c.method === 'OPTIONS' ? undefined : probe.body;
        return send(
          agent,
          port,
          c.method,
          c.route.path,
          {
            host: c.host,
            origin: c.origin,
            'content-type': body ? probe.type : undefined,
            // A CORS preflight, as a browser sends it before a JSON POST.
            'access-control-request-method': c.method === 'OPTIONS' ? c.route.method : undefined,
            'access-control-request-headers': c.method === 'OPTIONS' ? 'content-type' : undefined,
          },
          body,
        );
      }),
      8,
    );
    const seconds = (performance.now() - started) / 1000;

    const wrong = cases.flatMap((c, i) => {
      const a = answers[i]!;
      const ok =
        a.status === 403 &&
        codeOf(a) === c.expected &&
        corsHeaders(a.headers).length === 0 &&
        a.headers['cross-origin-resource-policy'] === 'same-origin';
      return ok
        ? []
        : [
            `${c.method} ${c.route.path} Host=${c.host} Origin=${c.origin} → ${a.status} ${a.body.slice(0, 80)}`,
          ];
    });
    expect(wrong).toEqual([]);
    expect(snapshot(app)).toEqual(before);
    expect(await extensionVersion(app)).toEqual(['1.1.0']);
    // Figures for the report card.
    console.info(
      `browser-attacks matrix: ${STATE_CHANGING.length} routes × ${UNSAFE_METHODS.length} methods → ` +
        `${cases.length} requests refused in ${seconds.toFixed(1)} s`,
    );
  });

  it('positive control: the same probes from the own origin or the CLI do change state', async () => {
    // Without this, a probe that never could change anything would make the matrix pass vacuously.
    const app = await startTestApp();
    await installProbeExtension(app);
    const agent = new http.Agent({ keepAlive: true });
    onCleanup(() => agent.destroy());
    const byName = (name: string) => STATE_CHANGING.find((r) => r.name === name)!;
    const run = (route: TargetRoute, origin: string | undefined) => {
      const probe = probeOf(route);
      return send(
        agent,
        app.port,
        route.method,
        route.path,
        { origin, 'content-type': probe.type },
        probe.body,
      );
    };
    expect((await run(byName('updateSetting'), `http://127.0.0.1:${app.port}`)).status).toBe(200);
    expect((await run(byName('rollbackExtension'), undefined)).status).toBe(200);
    expect(await extensionVersion(app)).toEqual(['1.0.0']);
    const upload = await run(byName('upload'), `http://localhost:${app.port}`);
    expect(upload.status, upload.body).toBe(200);
    const { rows, files } = snapshot(app);
    expect(rows.settings).toEqual([expect.objectContaining({ key: 'debugMode', value: 'true' })]);
    expect(rows.projects).toEqual([expect.objectContaining({ name: 'site' })]);
    expect(Object.keys(files)).toContain(path.join('projects', 'site', 'index.html'));
  });
});

describe('cross-site WebSocket', () => {
  it('refuses /ws upgrades from every hostile Origin and Host, and keeps no client', async () => {
    const app = await startTestApp();
    const preview = await startStaticPreview({ root: tempDir('forge-preview-origin-') });
    onCleanup(() => preview.close());
    const own = `127.0.0.1:${app.port}`;
    const attempts: Array<{ origin?: string; host?: string; code: string }> = [
      ...[
        'http://evil.example',
        'null',
        'http://192.168.1.5:4317',
        `http://127.0.0.2:${app.port}`,
        preview.url,
      ].map((origin) => ({ origin, code: 'ORIGIN_NOT_ALLOWED' })),
      ...[
        'evil.example',
        `localtest.me:${app.port}`,
        `127.0.0.1.nip.io:${app.port}`,
        `192.168.1.5:${app.port}`,
      ].map((host) => ({ host, origin: `http://${host}`, code: 'HOST_NOT_ALLOWED' })),
    ];
    for (const a of attempts) {
      const { status, body } = await upgradeStatus(`${app.url}/ws`, {
        ...(a.origin ? { origin: a.origin } : {}),
        headers: { host: a.host ?? own },
      });
      expect(status, JSON.stringify(a)).toBe(403);
      expect(JSON.parse(body), JSON.stringify(a)).toMatchObject({ code: a.code });
    }
    expect(app.forge.hub.clientCount).toBe(0);
  });
});

describe('Content-Type confusion: JSON routes take JSON only', () => {
  const JSON_ROUTES = STATE_CHANGING.filter((r) => r.multipart === null);
  const CONFUSED = [
    { type: 'text/plain', body: (json: string) => json },
    { type: 'text/plain;charset=UTF-8', body: (json: string) => json },
    { type: 'application/x-www-form-urlencoded', body: (json: string) => `${encodeURIComponent(json)}=` },
    {
      type: `multipart/form-data; boundary=${BOUNDARY}`,
      body: (json: string) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="json"\r\n\r\n${json}\r\n--${BOUNDARY}--\r\n`,
    },
    { type: 'application/json-patch+json', body: (json: string) => json },
  ];

  it('refuses text/plain JSON, forms and multipart on every JSON route with 400 VALIDATION_FAILED, running nothing', async () => {
    const app = await startTestApp();
    await installProbeExtension(app);
    const before = snapshot(app);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    onCleanup(() => agent.destroy());
    const cases = JSON_ROUTES.flatMap((route) =>
      CONFUSED.flatMap((confused) =>
        // From the own page, and from the CLI (no Origin): both pass the Origin rule, so this is
        // the Content-Type check alone.
        [`http://127.0.0.1:${app.port}`, undefined].map((origin) => ({ route, confused, origin })),
      ),
    );
    const answers = await pool(
      cases.map(({ route, confused, origin }) => () => {
        const json = JSON.stringify(PROBE_BODIES[route.name] ?? {});
        const body = Buffer.from(confused.body(json));
        return send(
          agent,
          app.port,
          route.method,
          route.path,
          { origin, 'content-type': confused.type },
          body,
        );
      }),
      8,
    );
    const wrong = cases.flatMap((c, i) => {
      const a = answers[i]!;
      const body = JSON.parse(a.body) as { code?: string; error?: string };
      return a.status === 400 &&
        body.code === 'VALIDATION_FAILED' &&
        /Content-Type: application\/json/.test(body.error ?? '')
        ? []
        : [`${c.route.method} ${c.route.path} ${c.confused.type} → ${a.status} ${a.body.slice(0, 100)}`];
    });
    expect(wrong).toEqual([]);
    expect(snapshot(app)).toEqual(before);
    console.info(`browser-attacks content-type: ${cases.length} confused requests refused`);
  });

  it('never runs a bodyless route on a simple-request body: the extension keeps its version', async () => {
    const app = await startTestApp();
    await installProbeExtension(app);
    const before = snapshot(app);
    for (const [method, target] of [
      ['POST', '/api/extensions/probe/rollback'],
      ['POST', '/API/EXTENSIONS/probe/rollback'],
      ['DELETE', '/api/extensions/probe'],
    ] as const) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const res = await fetch(`${app.url}${target}`, {
          method,
          headers: { 'content-type': type },
          body: '{}',
        });
        expect(res.status, `${method} ${target} ${type}`).toBe(400);
      }
    }
    expect(snapshot(app)).toEqual(before);
    expect(await extensionVersion(app)).toEqual(['1.1.0']);
    // The same call as the CLI makes it (no body at all) still works.
    const rollback = await fetch(`${app.url}/api/extensions/probe/rollback`, { method: 'POST' });
    expect(rollback.status).toBe(200);
    expect(await extensionVersion(app)).toEqual(['1.0.0']);
  });
});

// ---------------------------------------------------------------------------------------------
// Real Chromium: a page on a preview origin and an installed extension's page attack the daemon.

describe.runIf(hasChromium())('hostile pages in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const script = () =>
    attackScript(SITE_ZIP.toString('base64'), routes.upload.path, routes.upload.multipart.field);

  async function runAttacks(pageUrl: string, daemonUrl: string, bypassCSP = false): Promise<AttackResult[]> {
    const context = await browser.newContext({ bypassCSP });
    try {
      const page = await context.newPage();
      await page.goto(`${pageUrl}#${encodeURIComponent(daemonUrl)}`);
      // The script sets the title when every attempt has settled (a string: no DOM types here).
      await page.waitForFunction("document.title === 'done'", undefined, { timeout: 20_000 });
      return (await page.evaluate('window.__attacks')) as AttackResult[];
    } finally {
      await context.close();
    }
  }

  const ALL_REFUSED = {
    'json-post': 'refused TypeError',
    'text-plain-post': 'refused TypeError',
    'multipart-upload': 'refused TypeError',
    'cors-read': 'refused TypeError',
    'no-cors-read': 'refused TypeError',
    websocket: 'refused error',
  };

  const outcomes = (results: AttackResult[]) => Object.fromEntries(results.map((r) => [r.name, r.outcome]));

  /** The Origin refusals the daemon logged: "METHOD /path", or "UPGRADE <origin>" for /ws. */
  const refusalsFrom = (app: TestApp) =>
    app
      .logLines()
      .filter((l) => l.code === 'ORIGIN_NOT_ALLOWED')
      .map((l) => (l.method ? `${String(l.method)} ${String(l.url)}` : `UPGRADE ${String(l.origin)}`));

  function expectNothingLeaked(results: AttackResult[]) {
    for (const r of results) expect(r.body ?? '', r.name).not.toMatch(/debugMode|botOrchestration/);
  }

  it('a page on a static preview origin can neither change nor read anything', async () => {
    const app = await startTestApp();
    const root = tempDir('forge-hostile-preview-');
    fs.writeFileSync(path.join(root, 'index.html'), ATTACK_PAGE);
    fs.writeFileSync(path.join(root, 'attack.js'), script());
    const preview = await startStaticPreview({ root });
    onCleanup(() => preview.close());
    const before = snapshot(app);

    const results = await runAttacks(`${preview.url}/`, app.url);
    // The preflight is refused (403, no Access-Control-Allow-*), so the JSON POST is never sent;
    // simple requests are sent, and their answers (no CORS, Cross-Origin-Resource-Policy:
    // same-origin) reach the page as network errors, even in no-cors mode.
    expect(outcomes(results)).toEqual(ALL_REFUSED);
    expectNothingLeaked(results);
    expect(snapshot(app)).toEqual(before);
    // The daemon saw and refused them itself: the browser's CORS rules were not the only guard.
    expect(refusalsFrom(app)).toEqual(
      expect.arrayContaining([
        'OPTIONS /api/settings',
        'POST /api/settings',
        `POST ${routes.upload.path}`,
        `UPGRADE ${preview.url}`,
      ]),
    );
  });

  it("an installed extension's page that POSTs to the daemon is refused and the daemon is unchanged", async () => {
    const app = await startTestApp();
    const manifest = {
      name: 'hostile',
      displayName: 'Hostile',
      route: '/ext/hostile',
      version: '1.0.0',
      entry: 'index.html',
    };
    const form = new FormData();
    const zip = makeZip({
      'forge-extension.json': JSON.stringify(manifest),
      'index.html': ATTACK_PAGE,
      'attack.js': script(),
    });
    form.set(routes.uploadExtension.multipart.field, new Blob([zip]), 'hostile.zip');
    const installed = await fetch(`${app.url}${routes.uploadExtension.path}`, { method: 'POST', body: form });
    expect(installed.status).toBe(200);
    const { extension } = UploadExtensionResponse.parse(await installed.json());
    expect(extension.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(new URL(extension.url!).port).not.toBe(String(app.port));
    const before = snapshot(app);

    // As served: the extension's CSP (connect-src 'self') stops every call before it leaves the page.
    const fenced = await runAttacks(extension.url!, app.url);
    expect(outcomes(fenced)).toEqual(ALL_REFUSED);
    expect(refusalsFrom(app)).toEqual([]);

    // Without its CSP (a browser that ignores it, a future CSP bug) the daemon refuses on its own.
    const bare = await runAttacks(extension.url!, app.url, true);
    expect(outcomes(bare)).toEqual(ALL_REFUSED);
    expectNothingLeaked(bare);
    expect(refusalsFrom(app)).toEqual(
      expect.arrayContaining([
        'OPTIONS /api/settings',
        'POST /api/settings',
        `POST ${routes.upload.path}`,
        `UPGRADE ${new URL(extension.url!).origin}`,
      ]),
    );
    expect(snapshot(app)).toEqual(before);
  });
});
