/** Helpers for the preview tests (not shipped: nothing outside tests imports this file). */
import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request on a fresh connection; `path` goes on the request line untouched (no URL normalising). */
export function rawRequest(
  url: string,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  // An IPv6 host comes bracketed in a URL ("[::1]"), bare in a request.
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve, reject) => {
    const req = request(
      { host, port, path, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Resolves true when nothing accepts connections at `url` any more. */
export async function refusesConnections(url: string): Promise<boolean> {
  try {
    await rawRequest(url, '/');
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
  }
}

/** A minimal server app: answers with its PORT and a project variable once it listens. */
export const HELLO_APP = `import http from 'node:http';
console.log('pid=' + process.pid);
http
  .createServer((req, res) => res.end('hello from ' + process.env.PORT + ' ' + (process.env.GREETING ?? '')))
  .listen(Number(process.env.PORT), process.env.HOST, () => console.log('listening on ' + process.env.PORT));
`;
