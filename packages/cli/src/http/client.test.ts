import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createForgeClient, errorBody, Settings, type ForgeClient } from '@forge/shared';
import { makeBuild, makeStep } from '@forge/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../test/helpers.ts';
import { createCliClient, type CliClient } from './client.ts';

// The CLI's client against the shared client (fetch + zod), on the same answers of a local server:
// the same values, and errors of the same kind with the same words.

let server: Server;
let base: string;
let handler: (req: IncomingMessage, res: ServerResponse) => void;
/** Requests as the server saw them. */
let seen: Array<{ method?: string; url?: string; headers: IncomingMessage['headers']; body: string }>;

beforeEach(async () => {
  seen = [];
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const answer =
  (status: number, body: string, type = 'application/json') =>
  (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };

/** What a request gives: its value, or the kind and words of its error. */
async function outcome(call: () => Promise<unknown>) {
  try {
    return { value: JSON.parse(JSON.stringify(await call())) as unknown };
  } catch (err) {
    const e = err as { name: string; message: string; status?: number; code?: string; hint?: string };
    return { error: { name: e.name, message: e.message, status: e.status, code: e.code, hint: e.hint } };
  }
}

const clients = (): [CliClient, ForgeClient] => [
  createCliClient({ baseUrl: base, token: 'tok' }),
  createForgeClient({ baseUrl: base, token: 'tok' }),
];

describe('createCliClient answers as the shared client does', () => {
  const step = JSON.parse(JSON.stringify(makeStep({ name: 'build', botName: 'BuildBot' }))) as Record<
    string,
    unknown
  >;
  const build = JSON.parse(
    JSON.stringify(makeBuild({ steps: [makeStep({ name: 'build', botName: 'BuildBot' })] })),
  );
  const { attempt: _attempt, ...stepWithoutDefault } = step;

  it.each([
    ['an answer of this version', answer(200, JSON.stringify([build])), 'value'],
    // zod fills in the step's `attempt`: the value is zod's output, not what was sent.
    [
      'an answer zod completes',
      answer(200, JSON.stringify([{ ...build, steps: [stepWithoutDefault] }])),
      'value',
    ],
    ['an answer zod strips', answer(200, JSON.stringify([{ ...build, extra: true }])), 'value'],
    ['an answer of another shape', answer(200, JSON.stringify({ builds: [build] })), 'ForgeProtocolError'],
    [
      'an answer that is not JSON',
      answer(200, '<html>proxy error</html>', 'text/html'),
      'ForgeProtocolError',
    ],
    [
      'a refusal in the catalogue shape',
      answer(404, JSON.stringify(errorBody('BUILD_NOT_FOUND'))),
      'ForgeHttpError',
    ],
    ['a refusal without a body', answer(500, ''), 'ForgeHttpError'],
  ])('%s', async (_what, respond, kind) => {
    handler = respond;
    const [cli, shared] = clients();
    const ours = await outcome(() => cli.request('builds', { query: { project: 'my app', limit: 2 } }));
    const theirs = await outcome(() => shared.request('builds', { query: { project: 'my app', limit: 2 } }));
    expect(ours).toEqual(theirs);
    expect(ours.error?.name ?? 'value').toBe(kind);
    expect(seen[0]?.url).toBe('/api/builds?project=my+app&limit=2');
    expect(seen[0]?.url).toBe(seen[1]?.url);
  });

  it('a JSON body and the token, as the shared client sends them', async () => {
    const settings = Settings.parse({
      botOrchestration: true,
      autoRepair: true,
      debugMode: true,
      maxConcurrentBots: 3,
    });
    handler = answer(200, JSON.stringify(settings));
    const [cli, shared] = clients();
    expect(await cli.request('updateSetting', { body: { debugMode: true } })).toEqual(
      await shared.request('updateSetting', { body: { debugMode: true } }),
    );
    const [ours, theirs] = seen;
    for (const req of [ours!, theirs!]) {
      expect(req.method).toBe('POST');
      expect(req.headers.authorization).toBe('Bearer tok');
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.headers.accept).toBe('application/json');
    }
    expect(ours!.body).toBe(theirs!.body);
  });

  it('a daemon that is not there', async () => {
    base = `http://127.0.0.1:${await closedPort()}`;
    const [cli, shared] = clients();
    const ours = await outcome(() => cli.request('health'));
    expect(ours).toEqual(await outcome(() => shared.request('health')));
    expect(ours.error?.name).toBe('ForgeUnreachableError');
  });

  it('an aborted request rejects with the signal’s reason', async () => {
    handler = () => undefined; // never answers
    const controller = new AbortController();
    const pending = createCliClient({ baseUrl: base }).request('health', { signal: controller.signal });
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('url() builds the same URLs', () => {
    const [cli, shared] = clients();
    const input = { params: { name: 'my app' } };
    expect(cli.url('downloadArtifact', input)).toBe(shared.url('downloadArtifact', input));
  });
});
