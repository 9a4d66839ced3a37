import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI-compatible chat completions server on 127.0.0.1 for tests: each request is handed to the
 * test, which writes the streamed reply piece by piece (so it can wait for each piece to arrive
 * before sending the next) or answers anything else.
 */
export interface ModelCall {
  headers: http.IncomingHttpHeaders;
  path: string;
  body: { model?: string; stream?: boolean; messages?: Array<{ role: string; content: string }> } & Record<
    string,
    unknown
  >;
  res: http.ServerResponse;
  /** Start an SSE reply (once), then send one content delta. */
  write(piece: string): void;
  /** Send raw bytes of the stream (for split lines, comments, error events). */
  raw(text: string): void;
  /** `data: [DONE]` and the end of the reply. */
  end(): void;
}

export interface FakeModelServer {
  url: string;
  /** The next request that arrives (or one that already did and was not taken). */
  nextCall(): Promise<ModelCall>;
  close(): Promise<void>;
}

export async function startFakeModelServer(): Promise<FakeModelServer> {
  const calls: ModelCall[] = [];
  const waiters: Array<(call: ModelCall) => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let started = false;
      const start = () => {
        if (started) return;
        started = true;
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant' } }] })}\n\n`);
      };
      const call: ModelCall = {
        headers: req.headers,
        path: req.url ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString() || '{}') as ModelCall['body'],
        res,
        write(piece) {
          start();
          res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece } }] })}\n\n`);
        },
        raw(text) {
          start();
          res.write(text);
        },
        end() {
          start();
          res.end('data: [DONE]\n\n');
        },
      };
      const waiter = waiters.shift();
      if (waiter) waiter(call);
      else calls.push(call);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    nextCall: () => {
      const call = calls.shift();
      return call ? Promise.resolve(call) : new Promise((resolve) => waiters.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
