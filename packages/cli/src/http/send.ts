import {
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';

/**
 * One HTTP request over node:http, the CLI's transport for the shared callRoute. The CLI does not use
 * fetch: on Node 20 the first fetch loads undici, 0.13 s of CPU for `forge status` measured with
 * farm-bench (docs/decisions.md), more than a whole read command may take; node:http is in Node's core.
 * https (a --url daemon behind TLS) loads node:https when asked for.
 */

export interface HttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: RequestBody;
  signal?: AbortSignal;
  /** Give up when the socket has been idle this long (fetch's undici gives up after 300 s). */
  idleTimeoutMs?: number;
}

/** A body written as it is read (a 50 MB ZIP is not held in memory), with its length known up front. */
export interface StreamedBody {
  length: number;
  chunks: () => AsyncIterable<Uint8Array>;
}

export type RequestBody = string | Uint8Array | StreamedBody;

export interface HttpAnswer {
  status: number;
  statusText: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** The same as undici's default headers and body timeouts. */
export const IDLE_TIMEOUT_MS = 300_000;
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Send a request and read the whole answer. Rejects with the network error (refused, reset, timed
 * out) or the signal's reason; any HTTP status resolves. Like fetch, a GET follows redirects. A keep-alive socket that the server closed just as it was reused is retried
 * once, as Node's documentation advises, when the body can be sent again.
 */
export async function send(input: HttpRequest): Promise<HttpAnswer> {
  let url = input.url;
  for (let hops = 0; ; hops++) {
    const answer = await sendOnce({ ...input, url }).catch((err: unknown) => {
      if ((err as { reusedSocket?: boolean }).reusedSocket && replayable(input.body)) {
        return sendOnce({ ...input, url });
      }
      throw err;
    });
    const location = answer.headers.location;
    const follows = input.method === 'GET' || input.method === 'HEAD';
    if (!follows || !REDIRECTS.has(answer.status) || !location || hops >= MAX_REDIRECTS) return answer;
    url = new URL(location, url).href;
  }
}

const replayable = (body: RequestBody | undefined) => body === undefined || !isStreamed(body);
const isStreamed = (body: RequestBody): body is StreamedBody => typeof body === 'object' && 'chunks' in body;

async function sendOnce(input: HttpRequest): Promise<HttpAnswer> {
  const target = new URL(input.url);
  const requestFn =
    target.protocol === 'https:'
      ? (await import('node:https')).request
      : target.protocol === 'http:'
        ? httpRequest
        : null;
  if (!requestFn) throw new TypeError(`Unsupported protocol ${target.protocol} in ${input.url}`);
  const headers: Record<string, string | number> = { ...input.headers };
  if (input.body !== undefined) {
    headers['content-length'] = isStreamed(input.body) ? input.body.length : Buffer.byteLength(input.body);
  }
  const options: RequestOptions = { method: input.method, headers };
  const { signal } = input;
  signal?.throwIfAborted();

  return new Promise<HttpAnswer>((resolve, reject) => {
    // Aborting destroys the request. (Done here rather than with http.request's `signal` option,
    // whose stream plumbing costs a read command a millisecond on its first use.)
    const abort = () => req.destroy(signal?.reason as Error);
    signal?.addEventListener('abort', abort, { once: true });
    const done = () => signal?.removeEventListener('abort', abort);
    // A function declaration: the callbacks below call it, and it reads `req`, once both exist.
    function fail(err: unknown) {
      done();
      if (err && typeof err === 'object' && req.reusedSocket)
        (err as { reusedSocket?: boolean }).reusedSocket = true;
      reject(signal?.aborted ? signal.reason : err);
    }
    const req: ClientRequest = requestFn(target, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', fail);
      // Destroyed mid-answer (aborted, reset): 'close' without 'end'.
      res.on('close', () => {
        if (!res.complete) fail(new Error(`The answer from ${target.origin} was cut off.`));
      });
      res.on('end', () => {
        done();
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          headers: res.headers,
          body: Buffer.concat(chunks),
        });
      });
    });
    req.on('error', fail);
    req.setTimeout(input.idleTimeoutMs ?? IDLE_TIMEOUT_MS, () =>
      req.destroy(
        new Error(`No answer from ${target.origin} for ${(input.idleTimeoutMs ?? IDLE_TIMEOUT_MS) / 1000} s`),
      ),
    );
    writeBody(req, input.body).catch((err: unknown) => req.destroy(err as Error));
  });
}

async function writeBody(req: ClientRequest, body: RequestBody | undefined): Promise<void> {
  if (body === undefined || !isStreamed(body)) {
    req.end(body);
    return;
  }
  for await (const chunk of body.chunks()) {
    if (req.destroyed) return;
    if (!req.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          req.off('drain', done);
          req.off('close', done);
          resolve();
        };
        req.on('drain', done);
        req.on('close', done);
      });
    }
  }
  req.end();
}
