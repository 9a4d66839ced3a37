import http from 'node:http';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient } from './openai.ts';
import { startFakeModelServer, type FakeModelServer } from './openai-server.fixture.ts';
import { ModelError } from './types.ts';

const KEY = 'sk-test-0123456789-secret';

/** A debug-level pino logger whose lines the test can read. */
function memoryLogger() {
  let text = '';
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString();
        done();
      },
    }),
  );
  return { logger, text: () => text };
}

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function fakeModel(): Promise<FakeModelServer> {
  const server = await startFakeModelServer();
  servers.push(server);
  return server;
}
/** A plain node:http server answering every request with `handler`. */
async function plainServer(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const ask = [{ role: 'user' as const, content: 'Why did my build fail?' }];

describe('createModelClient', () => {
  it('is null without a provider', () => {
    expect(createModelClient(undefined, memoryLogger().logger)).toBeNull();
    expect(createModelClient(null, memoryLogger().logger)).toBeNull();
  });

  it('streams a reply from an OpenAI-compatible server, the key only in the Authorization header', async () => {
    const server = await fakeModel();
    const log = memoryLogger();
    const client = createModelClient({ url: `${server.url}/`, model: 'llama3.2', apiKey: KEY }, log.logger)!;
    expect(client).toMatchObject({ model: 'llama3.2', url: `${server.url}/` });
    const deltas: string[] = [];
    const reply = client.complete({
      messages: ask,
      onDelta: (t) => deltas.push(t),
      maxTokens: 50,
      temperature: 0,
    });
    const call = await server.nextCall();
    expect(call.path).toBe('/v1/chat/completions');
    expect(call.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(call.body).toMatchObject({
      model: 'llama3.2',
      stream: true,
      messages: ask,
      max_tokens: 50,
      temperature: 0,
    });
    call.write('The build ');
    await expect.poll(() => deltas).toEqual(['The build ']);
    // A line split across writes, CRLF endings and a keep-alive comment are all read correctly.
    call.raw(': keep-alive\r\n\r\ndata: {"choices":[{"delta":{"content":"failed: "}}');
    call.raw(']}\r\n\r\n');
    call.write('missing package.');
    call.end();
    await expect(reply).resolves.toBe('The build failed: missing package.');
    expect(deltas).toEqual(['The build ', 'The build failed: ', 'The build failed: missing package.']);
    expect(log.text()).toContain('model request');
    expect(log.text()).toContain('model reply');
    expect(log.text()).not.toContain(KEY);
  });

  it('sends no Authorization header without a key, and reads a server that does not stream', async () => {
    let auth: string | undefined = 'unset';
    const url = await plainServer((req, res) => {
      auth = req.headers.authorization;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Whole answer.' } }] }));
    });
    const deltas: string[] = [];
    const client = createModelClient({ url, model: 'm', apiKey: null }, memoryLogger().logger)!;
    await expect(client.complete({ messages: ask, onDelta: (t) => deltas.push(t) })).resolves.toBe(
      'Whole answer.',
    );
    expect(auth).toBeUndefined();
    expect(deltas).toEqual(['Whole answer.']);
  });

  it("fails with the status and the server's error text, the key scrubbed", async () => {
    const url = await plainServer((_req, res) => {
      res.statusCode = 401;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }));
    });
    const log = memoryLogger();
    const client = createModelClient({ url, model: 'm', apiKey: KEY }, log.logger)!;
    const error = await client.complete({ messages: ask }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).status).toBe(401);
    expect((error as Error).message).toBe(
      `The model at ${url} answered 401 Unauthorized: Incorrect API key provided: ***`,
    );
    expect(log.text()).not.toContain(KEY);
  });

  it('says when the server cannot be reached', async () => {
    const url = await plainServer(() => {});
    await servers.pop()!.close();
    const client = createModelClient({ url, model: 'm', apiKey: KEY }, memoryLogger().logger)!;
    await expect(client.complete({ messages: ask })).rejects.toThrow(
      `Cannot reach the model at ${url}: connection refused (is the model server running?).`,
    );
  });

  it('gives up when the first token does not come in time', async () => {
    const server = await fakeModel();
    const client = createModelClient(
      { url: server.url, model: 'slow', apiKey: null },
      memoryLogger().logger,
      {
        firstTokenTimeoutMs: 300,
      },
    )!;
    const reply = client.complete({ messages: ask });
    const call = await server.nextCall();
    call.raw(': still loading the model\n\n');
    await expect(reply).rejects.toThrow(
      `The model slow at ${server.url} did not start answering within 300 ms.`,
    );
  });

  it('gives up when the whole reply takes too long, and stops when the caller aborts', async () => {
    const server = await fakeModel();
    const client = createModelClient({ url: server.url, model: 'm', apiKey: null }, memoryLogger().logger, {
      replyTimeoutMs: 400,
    })!;
    const deltas: string[] = [];
    const slow = client.complete({ messages: ask, onDelta: (t) => deltas.push(t) });
    (await server.nextCall()).write('partial');
    await expect(slow).rejects.toThrow(
      'The model m at ' + server.url + ' did not finish its reply within 400 ms.',
    );
    expect(deltas).toEqual(['partial']);

    const controller = new AbortController();
    const aborted = client.complete({ messages: ask, signal: controller.signal });
    (await server.nextCall()).write('x');
    controller.abort();
    await expect(aborted).rejects.toThrow('The model request was cancelled.');
  });

  it('reports an error event in the stream and an empty reply', async () => {
    const server = await fakeModel();
    const client = createModelClient({ url: server.url, model: 'm', apiKey: null }, memoryLogger().logger)!;
    const failing = client.complete({ messages: ask });
    const call = await server.nextCall();
    call.raw(
      `data: ${JSON.stringify({ error: { message: 'model "m" not found, try pulling it first' } })}\n\n`,
    );
    await expect(failing).rejects.toThrow(
      `The model at ${server.url} reported an error: model "m" not found`,
    );

    const empty = client.complete({ messages: ask });
    (await server.nextCall()).end();
    await expect(empty).rejects.toThrow('answered with an empty reply');
  });
});
