import { describe, expect, it, vi } from 'vitest';
import { createForgeClient, socketUrl } from './http-client.ts';
import { ForgeHttpError, ForgeProtocolError, ForgeUnreachableError } from './errors.ts';

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

describe('createForgeClient', () => {
  it('calls a route by name with its method, path, JSON body and token', async () => {
    const fetch = vi.fn(async (..._args: Parameters<typeof globalThis.fetch>) =>
      json({ botOrchestration: true, autoRepair: true, debugMode: true, maxConcurrentBots: 25 }),
    );
    const client = createForgeClient({ baseUrl: 'http://127.0.0.1:9/', fetch, token: 't0k' });
    const settings = await client.request('updateSetting', { body: { debugMode: true } });
    expect(settings.debugMode).toBe(true);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('http://127.0.0.1:9/api/settings');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"debugMode":true}');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer t0k');
  });

  it('builds query strings', async () => {
    const fetch = vi.fn(async (..._args: Parameters<typeof globalThis.fetch>) =>
      json({ path: 'a.ts', content: 'x' }),
    );
    const client = createForgeClient({ baseUrl: 'http://h', fetch });
    await client.request('fileContent', { query: { path: 'src/a.ts' } });
    expect(fetch.mock.calls[0]![0]).toBe('http://h/api/files/content?path=src%2Fa.ts');
  });

  it('turns a non-OK answer into "status: body" and keeps the code and hint', async () => {
    const body = {
      error: 'Send exactly one known setting',
      code: 'UNKNOWN_SETTING',
      hint: 'Known settings: …',
    };
    const client = createForgeClient({ baseUrl: 'http://h', fetch: async () => json(body, 400) });
    const err = await client.request('updateSetting', { body: { debugMode: true } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForgeHttpError);
    const e = err as ForgeHttpError;
    expect(e.message).toBe(`400: ${JSON.stringify(body)}`);
    expect(e.status).toBe(400);
    expect(e.code).toBe('UNKNOWN_SETTING');
    expect(e.serverMessage).toBe('Send exactly one known setting');
    expect(e.hint).toBe('Known settings: …');
  });

  it('uses the status text when the body is empty', async () => {
    const client = createForgeClient({
      baseUrl: 'http://h',
      fetch: async () => new Response('', { status: 502, statusText: 'Bad Gateway' }),
    });
    await expect(client.request('health')).rejects.toThrow('502: Bad Gateway');
  });

  it('reports an unreachable daemon distinctly', async () => {
    const client = createForgeClient({
      baseUrl: 'http://127.0.0.1:1',
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(client.request('health')).rejects.toBeInstanceOf(ForgeUnreachableError);
  });

  it('passes a signal on, and an aborted request rejects with its reason, not as unreachable', async () => {
    const client = createForgeClient({
      baseUrl: 'http://h',
      fetch: (_url, init) =>
        new Promise((_resolve, reject) =>
          init!.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    });
    const controller = new AbortController();
    const pending = client.request('health', { signal: controller.signal });
    controller.abort(new Error('panel closed'));
    await expect(pending).rejects.toThrow('panel closed');
  });

  it('refuses an answer that does not match the protocol', async () => {
    const client = createForgeClient({ baseUrl: 'http://h', fetch: async () => json({ ok: 'yes' }) });
    await expect(client.request('health')).rejects.toBeInstanceOf(ForgeProtocolError);
  });
});

describe('socketUrl', () => {
  it('maps http to ws and https to wss on /ws', () => {
    expect(socketUrl('http://127.0.0.1:4317')).toBe('ws://127.0.0.1:4317/ws');
    expect(socketUrl('https://forge.local')).toBe('wss://forge.local/ws');
    expect(socketUrl('http://h:1', 'a b')).toBe('ws://h:1/ws?token=a+b');
  });
});
