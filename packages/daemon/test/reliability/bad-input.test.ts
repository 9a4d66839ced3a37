import net from 'node:net';
import path from 'node:path';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, MAX_JSON_BODY_BYTES, routes, type RouteContract } from '@forge/shared';
import { forgeZip, type ForgedEntry } from '@forge/testing';
import { cleanup, rawRequest, startTestApp, type RawResponse, type TestApp } from '../helpers.ts';

/**
 * Bad input everywhere (docs/reliability.md#bad-input-everywhere): every route of the shared table that takes
 * a body gets malformed, oversized, deeply nested and mistyped JSON; URLs get bytes that decode to no text;
 * archives get hostile entry names. Each must be a 4xx with a catalogue code, never a 500, and the daemon
 * must answer /api/health afterwards. New routes are covered as soon as they enter the table.
 */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ starterProject: true });
});
afterAll(cleanup);

const isCatalogued = (code: unknown): boolean => typeof code === 'string' && code in ERROR_CATALOGUE;
const fill = (p: string, value = 'x') => p.replace(/:\w+/g, value);

/** A request with an exact Content-Length (node:http sends a DELETE's body without one). */
function send(method: string, target: string, body?: string, headers: Record<string, string> = {}) {
  return rawRequest(app.port, {
    method,
    path: target,
    headers: {
      ...(body === undefined
        ? {}
        : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
      ...headers,
    },
    body,
  });
}

/** The answer is a 4xx in the catalogue shape (optionally exactly `code`). */
function expectRefused(res: RawResponse, code?: string): { code: string; error: string } {
  expect(res.status, res.body).toBeGreaterThanOrEqual(400);
  expect(res.status, res.body).toBeLessThan(500);
  const body = res.json() as { code: string; error: string };
  expect(isCatalogued(body.code), res.body).toBe(true);
  if (code) expect(body.code).toBe(code);
  expect(body.error.length).toBeGreaterThan(0);
  return body;
}

async function expectHealthy(): Promise<void> {
  const res = await send('GET', '/api/health');
  expect(res.status).toBe(200);
}

/** One request over a raw socket: what Node's client would refuse to send. Resolves with the whole answer. */
function rawExchange(request: Buffer | string, then?: (socket: net.Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(app.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // The server may close while we still write (it refused the body): the answer is what counts.
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET') return;
      reject(err);
    });
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.write(request);
    then?.(socket);
  });
}
const statusOf = (answer: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
const bodyOf = (answer: string): { code: string } =>
  JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: string };

const bodyRoutes = Object.entries(routes as Record<string, RouteContract>).filter(([, r]) => r.body);
const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('JSON bodies: every route with a body', () => {
  it('the table has routes with bodies (the loop below is not empty)', () => {
    expect(bodyRoutes.length).toBeGreaterThanOrEqual(10);
  });

  // Strings a JSON parser must refuse: truncated, trailing garbage, single quotes, a bare
  // primitive (strict mode: objects and arrays only), comments, NaN, a BOM, invalid UTF-8 bytes.
  const malformed = [
    '{"a":',
    '{"a":1}}',
    "{'a':1}",
    '"just a string"',
    'null',
    '{/*c*/}',
    '{"a":NaN}',
    '{"a":1,}',
    '',
  ];

  it.each(bodyRoutes)('%s: malformed JSON is INVALID_JSON', async (_name, route) => {
    for (const body of malformed) {
      const res = await send(route.method, fill(route.path), body === '' ? ' ' : body);
      expectRefused(res, 'INVALID_JSON');
    }
  });

  it.each(bodyRoutes)(
    '%s: 100k-deep arrays and objects, wrong types → 4xx, never a 500',
    async (_name, route) => {
      const bodies = [
        deepArray(100_000),
        deepObject(100_000),
        '[1,2,3]',
        '{"path":1,"content":[],"name":{},"value":true,"message":null,"project":42}',
        '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
        `{"path":"${'a/'.repeat(4000)}x","content":"${'x'.repeat(100_000)}"}`,
      ];
      for (const body of bodies) expectRefused(await send(route.method, fill(route.path), body));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it.each(bodyRoutes)(
    '%s: a declared body over the limit is BODY_TOO_LARGE at once',
    async (_name, route) => {
      // Ten gigabytes declared, a few bytes sent: the answer must come without waiting for the rest.
      const answer = await rawExchange(
        `${route.method} ${fill(route.path)} HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${10 * 1024 ** 3}\r\n\r\n{"path":`,
      );
      expect(statusOf(answer), answer).toBe(413);
      expect(bodyOf(answer).code).toBe('BODY_TOO_LARGE');
    },
  );

  it('a body over the limit sent chunked is BODY_TOO_LARGE, and the daemon keeps serving', async () => {
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const chunks = Math.ceil(MAX_JSON_BODY_BYTES / chunk.length) + 2;
    const answer = await rawExchange(
      `POST ${routes.fileSave.path} HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      (socket) => {
        let sent = 0;
        const pump = (): void => {
          while (sent < chunks && !socket.destroyed) {
            sent++;
            socket.write(`${chunk.length.toString(16)}\r\n`);
            socket.write(chunk);
            if (!socket.write('\r\n')) {
              socket.once('drain', pump);
              return;
            }
          }
          if (!socket.destroyed) socket.write('0\r\n\r\n');
        };
        pump();
      },
    );
    expect(statusOf(answer), answer.slice(0, 300)).toBe(413);
    expect(bodyOf(answer).code).toBe('BODY_TOO_LARGE');
    await expectHealthy();
  });

  it('JSON that is not UTF-8, or compressed in a way we do not read, is a 4xx', async () => {
    const invalidUtf8 = Buffer.from('{"path":"\xff\xc0\xae\xed\xa0\x80","content":"x"}', 'latin1');
    const cases: Array<[Record<string, string>, string | Buffer]> = [
      [{ 'content-type': 'application/json; charset=latin1' }, '{}'],
      [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'not gzip'],
      [{ 'content-type': 'application/json', 'content-encoding': 'x-unknown' }, '{}'],
      [{ 'content-type': 'application/json' }, invalidUtf8],
    ];
    for (const [headers, body] of cases) {
      const buf = Buffer.from(body);
      const answer = await rawExchange(
        Buffer.concat([
          Buffer.from(
            `POST ${routes.fileSave.path} HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\nConnection: close\r\n` +
              Object.entries(headers)
                .map(([k, v]) => `${k}: ${v}\r\n`)
                .join('') +
              `Content-Length: ${buf.length}\r\n\r\n`,
          ),
          buf,
        ]),
      );
      const status = statusOf(answer);
      expect(status, answer).toBeGreaterThanOrEqual(400);
      expect(status, answer).toBeLessThan(500);
      expect(isCatalogued(bodyOf(answer).code)).toBe(true);
    }
    await expectHealthy();
  });
});

describe('URLs that decode to no text', () => {
  // Stray "%", a non-hex escape, a lone continuation byte, an overlong "..", an encoded surrogate.
  const broken = ['%', '%zz', '%ff', '%c0%ae%c0%ae', '%ed%a0%80', '%e2%82'];

  it.each(Object.entries(routes as Record<string, RouteContract>).filter(([, r]) => r.path.includes(':')))(
    '%s: a path parameter that is not UTF-8 is VALIDATION_FAILED',
    async (_name, route) => {
      for (const bad of broken) {
        const res = await send(route.method, fill(route.path, `a${bad}`), route.body ? '{}' : undefined);
        expectRefused(res, 'VALIDATION_FAILED');
      }
    },
  );

  it('a file path in the query that is not UTF-8 is refused, never read as U+FFFD', async () => {
    // A file whose name is U+FFFD: what "%ff" would silently become.
    expect(
      (await send('POST', routes.fileSave.path, JSON.stringify({ path: '\ufffd', content: 'x' }))).status,
    ).toBe(200);
    for (const bad of broken) {
      expectRefused(await send('GET', `${routes.fileContent.path}?path=${bad}`), 'VALIDATION_FAILED');
      expectRefused(await send('GET', `${routes.fileStructure.path}?project=${bad}`), 'VALIDATION_FAILED');
    }
    await expectHealthy();
  });

  it('raw bytes, NUL and broken framing in the request itself get a catalogue 400 and a closed socket', async () => {
    const host = `Host: 127.0.0.1:${app.port}\r\n`;
    const requests = [
      Buffer.from(`GET ${routes.fileContent.path}?path=\xff\xfe HTTP/1.1\r\n${host}\r\n`, 'latin1'),
      Buffer.from(`GET /api/builds/\xc0\xae HTTP/1.1\r\n${host}\r\n`, 'latin1'),
      Buffer.from(`GET /api/health\x00 HTTP/1.1\r\n${host}\r\n`, 'latin1'),
      Buffer.from(`POST ${routes.fileSave.path} HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\nzz\r\n`),
      Buffer.from(`GET /api/health HTTP/1.1\r\n${host}X-Bad\x01Header: 1\r\n\r\n`, 'latin1'),
    ];
    for (const request of requests) {
      const answer = await rawExchange(request);
      expect(statusOf(answer), answer).toBe(400);
      expect(bodyOf(answer).code).toBe('VALIDATION_FAILED');
    }
    await expectHealthy();
  });
});

describe('file paths in JSON bodies', () => {
  const root = () => path.join(app.home, 'projects', 'Forge');

  it('lone surrogates, NUL and controls are PATH_INVALID on every file route, and nothing is written', async () => {
    const before = fs.readdirSync(root()).sort();
    const bad = ['a\ud800b', '\udfff', 'x/\udc00', 'a\u0000b', 'tab\there', 'esc\u001b[2J', 'del\u007f'];
    for (const p of bad) {
      expectRefused(
        await send('POST', routes.fileSave.path, JSON.stringify({ path: p, content: 'x' })),
        'PATH_INVALID',
      );
      expectRefused(
        await send('POST', routes.fileCreate.path, JSON.stringify({ path: p, content: 'x' })),
        'PATH_INVALID',
      );
      expectRefused(
        await send('POST', routes.fileCreate.path, JSON.stringify({ type: 'file', name: p, parentPath: '' })),
        'PATH_INVALID',
      );
      expectRefused(
        await send('DELETE', routes.fileDelete.path, JSON.stringify({ path: p })),
        'PATH_INVALID',
      );
      expectRefused(
        await send('POST', routes.fileRename.path, JSON.stringify({ from: 'README.md', to: p })),
        'PATH_INVALID',
      );
      // A lone surrogate has no percent-encoding (encodeURIComponent throws); its UTF-8-looking
      // spelling %ed%a0%80 is refused with the other undecodable URLs above.
      if (!/[\ud800-\udfff]/.test(p))
        expectRefused(
          await send('GET', `${routes.fileContent.path}?path=${encodeURIComponent(p)}`),
          'PATH_INVALID',
        );
    }
    expect(fs.readdirSync(root()).sort()).toEqual(before);
  });

  it('a well-formed astral character (a surrogate pair) is a normal name', async () => {
    const res = await send(
      'POST',
      routes.fileSave.path,
      JSON.stringify({ path: 'emoji-😀.txt', content: 'ok' }),
    );
    expect(res.status, res.body).toBe(200);
    expect(fs.readFileSync(path.join(root(), 'emoji-😀.txt'), 'utf8')).toBe('ok');
  });

  it('over-long paths and names are PATH_INVALID', async () => {
    for (const p of ['a'.repeat(256), `${'d/'.repeat(600)}x`, `${'é'.repeat(128)}`]) {
      expectRefused(
        await send('POST', routes.fileSave.path, JSON.stringify({ path: p, content: 'x' })),
        'PATH_INVALID',
      );
    }
  });
});

describe('ZIP entry names (POST /api/plan)', () => {
  const ok: ForgedEntry = { name: 'index.html', data: '<h1>hi</h1>' };

  async function plan(entries: ForgedEntry[]): Promise<RawResponse> {
    const form = new FormData();
    form.set(routes.planArchive.multipart.field, new Blob([forgeZip(entries)]), 'app.zip');
    const res = await fetch(`${app.url}${routes.planArchive.path}`, { method: 'POST', body: form });
    const body = await res.text();
    return { status: res.status, headers: {}, body, json: () => JSON.parse(body) };
  }

  const hostile: Array<[label: string, entries: ForgedEntry[], code: string]> = [
    ['a NUL byte', [ok, { name: 'a\u0000b.js', data: 'x' }], 'ARCHIVE_BAD_NAME'],
    ['an escape sequence', [ok, { name: 'a\u001b[31m.js', data: 'x' }], 'ARCHIVE_BAD_NAME'],
    ['a C1 control', [ok, { name: 'a\u0085.js', data: 'x' }], 'ARCHIVE_BAD_NAME'],
    ['a newline', [ok, { name: 'log\nforged line.js', data: 'x' }], 'ARCHIVE_BAD_NAME'],
    [
      'invalid UTF-8 marked UTF-8',
      [ok, { name: Buffer.from([0x61, 0xff, 0xfe, 0x2e, 0x6a, 0x73]), data: 'x', flags: 0x800 }],
      'ARCHIVE_BAD_NAME',
    ],
    [
      'an overlong "../" marked UTF-8',
      [ok, { name: Buffer.from([0xc0, 0xae, 0xc0, 0xae, 0x2f, 0x78]), data: 'x', flags: 0x800 }],
      'ARCHIVE_BAD_NAME',
    ],
    ['a 300-byte name', [ok, { name: `${'n'.repeat(300)}.js`, data: 'x' }], 'ARCHIVE_BAD_PATH'],
    ['a 1,100-byte path', [ok, { name: `${'dir/'.repeat(275)}x.js`, data: 'x' }], 'ARCHIVE_BAD_PATH'],
    ['"../"', [ok, { name: '../evil.js', data: 'x' }], 'ARCHIVE_PATH_TRAVERSAL'],
    ['an absolute path', [ok, { name: '/etc/evil', data: 'x' }], 'ARCHIVE_ABSOLUTE_PATH'],
    ['a drive path', [ok, { name: 'C:/evil', data: 'x' }], 'ARCHIVE_ABSOLUTE_PATH'],
    ['a backslash', [ok, { name: '..\\evil.js', data: 'x' }], 'ARCHIVE_BACKSLASH'],
    [
      'NFC and NFD spellings of one name',
      [ok, { name: 'caf\u00e9.js', data: 'a' }, { name: 'cafe\u0301.js', data: 'b' }],
      'ARCHIVE_DUPLICATE_ENTRY',
    ],
    [
      'names that differ in case',
      [ok, { name: 'App.js', data: 'a' }, { name: 'app.js', data: 'b' }],
      'ARCHIVE_DUPLICATE_ENTRY',
    ],
    [
      'a Kelvin sign folding onto K',
      [ok, { name: 'k.js', data: 'a' }, { name: '\u212a.js', data: 'b' }],
      'ARCHIVE_DUPLICATE_ENTRY',
    ],
    [
      'a file and a folder of one name',
      [ok, { name: 'a', data: 'a' }, { name: 'a/b.js', data: 'b' }],
      'ARCHIVE_DUPLICATE_ENTRY',
    ],
  ];

  it.each(hostile)('%s is refused with its ARCHIVE_* code', async (_label, entries, code) => {
    const res = await plan(entries);
    expect(res.status, res.body).toBe(422);
    expectRefused(res, code);
    await expectHealthy();
  });

  it('the same archive without the hostile entry plans fine (the refusals are about the names)', async () => {
    const res = await plan([ok, { name: 'café.js', data: 'x' }]);
    expect(res.status, res.body).toBe(200);
  });
});
