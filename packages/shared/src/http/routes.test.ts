import { describe, expect, it } from 'vitest';
import { buildPath, routes, withQuery } from './routes.ts';

describe('route table', () => {
  it('has one entry per method and path', () => {
    const keys = Object.values(routes).map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
  it('keeps every route under /api', () => {
    for (const r of Object.values(routes)) expect(r.path.startsWith('/api/')).toBe(true);
  });
  it('covers every call of docs/product.md#http-calls', () => {
    const listed = new Set(Object.values(routes).map((r) => `${r.method} ${r.path}`));
    for (const call of [
      'GET /api/bots/status',
      'POST /api/upload',
      'GET /api/files/structure',
      'GET /api/files/content',
      'POST /api/files/save',
      'DELETE /api/files/delete',
      'POST /api/files/create',
      'GET /api/preview/url',
      'GET /api/extensions',
      'POST /api/upload-extension',
      'POST /api/package-platform',
      'GET /api/download/app',
      'POST /api/forge/integrate-last',
      'POST /api/forge/fix-modules',
      'GET /api/forge/blueprint',
      'GET /api/forge/workflow',
      'GET /api/forge/issues',
      'GET /api/forge/status',
      'GET /api/brain/status',
      'POST /api/brain/handshake',
      'GET /api/dynamic-routes',
      'POST /api/forge/toggle',
      'POST /api/integrate',
      'POST /api/save-project',
      'GET /api/settings',
      'POST /api/settings',
      'POST /api/bots/build',
      'POST /api/bots/fix',
      'POST /api/chat',
      'POST /api/login',
      'GET /api/memory-cells',
    ]) {
      expect(listed, call).toContain(call);
    }
  });
});

describe('buildPath / withQuery', () => {
  it('fills and encodes params', () => {
    expect(buildPath('/api/builds/:id/logs', { id: 'a b/c' })).toBe('/api/builds/a%20b%2Fc/logs');
  });
  it('throws on a missing param instead of calling a wrong path', () => {
    expect(() => buildPath('/api/builds/:id', {})).toThrow(/id/);
  });
  it('appends defined query values only', () => {
    expect(withQuery('/api/files/content', { path: 'src/a b.ts', project: undefined })).toBe(
      '/api/files/content?path=src%2Fa+b.ts',
    );
    expect(withQuery('/x', {})).toBe('/x');
  });
});
