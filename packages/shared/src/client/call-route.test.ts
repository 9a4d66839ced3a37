import { describe, expect, it } from 'vitest';
import { callRoute, type RouteCaller, type WireAnswer, type WireRequest } from './call-route.ts';
import * as errors from './errors.ts';

const route = { method: 'POST', path: '/api/things', body: true, binary: false };
const accept = (json: unknown) => ({ success: true as const, data: json });

/** A caller whose transport answers `answer` and records what it was asked, and when errors were loaded. */
function caller(answer: Partial<WireAnswer<Record<string, string>>> & { body?: string }) {
  const sent: Array<WireRequest<Uint8Array>> = [];
  let errorLoads = 0;
  const c: RouteCaller<Uint8Array, Record<string, string>> = {
    baseUrl: 'http://h',
    token: 't0k',
    errors: () => {
      errorLoads++;
      return errors;
    },
    send: async (request) => {
      sent.push(request);
      return {
        status: 200,
        statusText: 'OK',
        text: async () => answer.body ?? '{}',
        bytes: async () => new TextEncoder().encode(answer.body ?? ''),
        ...answer,
      };
    },
  };
  return { c, sent, errorLoads: () => errorLoads };
}

describe('callRoute', () => {
  it('sends JSON with the token, checks the answer, and loads no error class on success', async () => {
    const { c, sent, errorLoads } = caller({ body: '{"n":1}' });
    const seen: unknown[] = [];
    const value = await callRoute(c, route, { url: 'http://h/api/things', json: { a: 1 } }, (json) => {
      seen.push(json);
      return accept(json);
    });
    expect(value).toEqual({ n: 1 });
    expect(seen).toEqual([{ n: 1 }]);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      body: '{"a":1}',
      headers: {
        accept: 'application/json',
        authorization: 'Bearer t0k',
        'content-type': 'application/json',
      },
    });
    expect(errorLoads()).toBe(0);
  });

  it('sends a body the caller encoded with its own content type, and hands the answer headers on', async () => {
    const { c, sent } = caller({ headers: { 'set-cookie': 'x=1' } });
    const bytes = new Uint8Array([1, 2]);
    const headers: unknown[] = [];
    await callRoute(
      c,
      route,
      {
        url: 'u',
        payload: { body: bytes, contentType: 'multipart/form-data; boundary=b' },
        headers: { cookie: 'y=2' },
        onHeaders: (h) => headers.push(h),
      },
      accept,
    );
    expect(sent[0]!.body).toBe(bytes);
    expect(sent[0]!.headers).toMatchObject({
      'content-type': 'multipart/form-data; boundary=b',
      cookie: 'y=2',
    });
    expect(headers).toEqual([{ 'set-cookie': 'x=1' }]);
  });

  it('puts the answer headers on an HTTP error (Retry-After of a 429)', async () => {
    const { c, errorLoads } = caller({
      status: 429,
      statusText: 'Too Many Requests',
      headers: { 'retry-after': '3' },
      body: '{"error":"Slow down","code":"TOO_MANY_ATTEMPTS"}',
    });
    const err = await callRoute(c, route, { url: 'u' }, accept).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(errors.ForgeHttpError);
    expect(err).toMatchObject({ status: 429, code: 'TOO_MANY_ATTEMPTS', headers: { 'retry-after': '3' } });
    expect(errorLoads()).toBe(1);
  });

  it('refuses an answer that is not JSON, or that the check refuses, in the protocol error’s words', async () => {
    await expect(callRoute(caller({ body: '<html>' }).c, route, { url: 'u' }, accept)).rejects.toThrow(
      'POST /api/things answered non-JSON: <html>',
    );
    await expect(
      callRoute(caller({}).c, route, { url: 'u' }, () => ({ success: false, message: 'n: required' })),
    ).rejects.toThrow('POST /api/things answered an unexpected shape: n: required');
  });
});
