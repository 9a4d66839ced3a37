import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  JobPreviewResponse,
  JobStartResponse,
  WorkerOrders,
  routes,
  type JobEventsBody,
  type JobPreviewBody,
  type JobStartBody,
  type WorkerHelloBody,
} from '@forge/shared';
import type { z } from 'zod';

/** An answer of the coordinator that is not a success, with its catalogue code when it sent one. */
export class CoordinatorError extends Error {
  override readonly name = 'CoordinatorError';
  constructor(
    message: string,
    /** HTTP status, or 0 when the coordinator could not be reached. */
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message);
  }
  /** The coordinator is down or restarting: try again later. */
  get transient(): boolean {
    return this.status === 0 || this.status === 502 || this.status === 503 || this.status === 504;
  }
}

const fill = (path: string, id: string): string => path.replace(':id', encodeURIComponent(id));

/**
 * How a `forge worker` talks to its coordinator: the daemon's own HTTP API, with the daemon's access
 * token (the coordinator refuses anything else when it has one), each call bounded in time.
 */
export function createCoordinatorClient(opts: { url: string; token: string | null; timeoutMs?: number }) {
  const base = opts.url.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
    ...extra,
  });

  async function call(path: string, init: RequestInit & { timeoutMs?: number }): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        ...init,
        signal: AbortSignal.timeout(init.timeoutMs ?? timeoutMs),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new CoordinatorError(`Cannot reach the Forge daemon at ${base} (${cause}).`, 0, null);
    }
    if (res.ok) return res;
    let code: string | null = null;
    let message = `${res.status} ${res.statusText}`;
    try {
      const body = (await res.json()) as { error?: string; code?: string };
      code = body.code ?? null;
      if (body.error) message = body.error;
    } catch {
      // not JSON
    }
    throw new CoordinatorError(`The Forge daemon at ${base} answered: ${message}`, res.status, code);
  }

  async function json<S extends z.ZodType>(
    method: string,
    path: string,
    body: unknown,
    schema: S,
  ): Promise<z.output<S>> {
    const res = await call(path, {
      method,
      headers: headers({ 'Content-Type': 'application/json' }),
      body: JSON.stringify(body),
    });
    return schema.parse(await res.json());
  }

  return {
    base,
    hello: (body: WorkerHelloBody) => json('POST', routes.workerHello.path, body, WorkerOrders),
    start: (buildId: string, body: JobStartBody) =>
      json('POST', fill(routes.workerJobStart.path, buildId), body, JobStartResponse),
    events: (buildId: string, body: JobEventsBody) =>
      json('POST', fill(routes.workerJobEvents.path, buildId), body, WorkerOrders),
    preview: (buildId: string, body: JobPreviewBody) =>
      json('POST', fill(routes.workerJobPreview.path, buildId), body, JobPreviewResponse),

    /** The project's files for `buildId`, written to `file`. */
    async source(buildId: string, worker: string, file: string): Promise<void> {
      const res = await call(
        `${fill(routes.workerJobSource.path, buildId)}?worker=${encodeURIComponent(worker)}`,
        { method: 'GET', headers: headers(), timeoutMs: 10 * 60_000 },
      );
      if (!res.body) throw new CoordinatorError('The Forge daemon sent no project files.', res.status, null);
      await pipeline(Readable.fromWeb(res.body as never), fs.createWriteStream(file));
    },

    /** Send a ZIP (the build output) for `buildId`. */
    async upload(
      buildId: string,
      worker: string,
      kind: 'output' | 'files' | 'artifact',
      file: string,
    ): Promise<number> {
      const form = new FormData();
      form.set('file', await fs.openAsBlob(file, { type: 'application/zip' }), 'output.zip');
      const query = `?worker=${encodeURIComponent(worker)}&kind=${kind}`;
      const res = await call(`${fill(routes.workerJobUpload.path, buildId)}${query}`, {
        method: 'POST',
        headers: headers(),
        body: form,
        timeoutMs: 10 * 60_000,
      });
      return routes.workerJobUpload.response.parse(await res.json()).files;
    },
  };
}

export type CoordinatorClient = ReturnType<typeof createCoordinatorClient>;
