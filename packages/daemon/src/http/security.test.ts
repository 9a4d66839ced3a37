import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  checkBodyType,
  createSecurityPolicy,
  isHostAllowed,
  isLoopbackHost,
  isOriginAllowed,
  readCookie,
  tokenMatches,
} from './security.ts';

const policy = createSecurityPolicy({
  host: '127.0.0.1',
  allowedHosts: ['forge.lan', 'proxy.lan:8443'],
  accessToken: null,
});

describe('isHostAllowed', () => {
  it.each([
    ['127.0.0.1:4317', true],
    ['localhost:4317', true],
    ['LOCALHOST:4317', true],
    ['[::1]:4317', true],
    ['forge.lan:4317', true],
    ['proxy.lan:8443', true],
    ['localhost', false], // port 80, not ours
    ['localhost:4318', false],
    ['evil.example:4317', false],
    ['localhost.evil.example:4317', false],
    ['evil@localhost:4317', false],
    ['', false],
  ])('%s → %s', (host, allowed) => {
    expect(isHostAllowed(policy, host, 4317)).toBe(allowed);
  });

  it('allows the bound address when it is not loopback', () => {
    const lan = createSecurityPolicy({ host: '192.168.1.20', allowedHosts: [], accessToken: 't' });
    expect(isHostAllowed(lan, '192.168.1.20:4317', 4317)).toBe(true);
    expect(isHostAllowed(lan, '192.168.1.21:4317', 4317)).toBe(false);
  });
});

describe('isOriginAllowed', () => {
  it.each([
    [undefined, true],
    ['http://127.0.0.1:4317', true],
    ['http://localhost:4317', true],
    ['http://[::1]:4317', true],
    ['https://127.0.0.1:4317', false],
    ['http://127.0.0.1:4318', false],
    ['http://evil.example', false],
    ['null', false],
    ['http://user@127.0.0.1:4317', false],
  ])('%s → %s', (origin, allowed) => {
    expect(isOriginAllowed(policy, origin, 4317)).toBe(allowed);
  });
});

describe('helpers', () => {
  it('knows loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.com'])
      expect(isLoopbackHost(host)).toBe(false);
  });

  it('compares tokens exactly', () => {
    const withToken = createSecurityPolicy({ host: '127.0.0.1', allowedHosts: [], accessToken: 'abc' });
    expect(tokenMatches(withToken, 'abc')).toBe(true);
    expect(tokenMatches(withToken, 'abcd')).toBe(false);
    expect(tokenMatches(withToken, '')).toBe(false);
    expect(tokenMatches(policy, 'abc')).toBe(false);
  });

  it('reads one cookie among several', () => {
    expect(readCookie('a=1; forge_token=x%20y; b=2', 'forge_token')).toBe('x y');
    expect(readCookie('a=1', 'forge_token')).toBeUndefined();
  });
});

describe('checkBodyType', () => {
  const req = (method: string, headers: Record<string, string>) => ({ method, headers }) as IncomingMessage;
  it.each([
    ['POST', '/api/settings', { 'content-type': 'application/json', 'content-length': '2' }, true],
    ['POST', '/api/settings', { 'content-type': 'Application/JSON; charset=utf-8' }, true],
    ['POST', '/api/builds/b1/cancel', {}, true],
    ['POST', '/api/builds/b1/cancel', { 'content-length': '0' }, true],
    ['POST', '/api/upload', { 'content-type': 'multipart/form-data; boundary=x' }, true],
    ['POST', '/API/UPLOAD-EXTENSION', { 'content-type': 'multipart/form-data; boundary=x' }, true],
    ['GET', '/api/settings', { 'content-type': 'text/plain' }, true],
    ['POST', '/api/settings', { 'content-type': 'text/plain', 'content-length': '2' }, false],
    ['POST', '/api/settings', { 'content-type': 'application/x-www-form-urlencoded' }, false],
    ['POST', '/api/settings', { 'content-type': 'multipart/form-data; boundary=x' }, false],
    ['POST', '/api/settings', { 'content-type': 'application/json-patch+json' }, false],
    ['POST', '/api/builds/b1/cancel', { 'content-length': '2' }, false],
    ['DELETE', '/API/EXTENSIONS/x', { 'transfer-encoding': 'chunked' }, false],
  ])('%s %s %o → allowed %s', (method, pathname, headers, allowed) => {
    expect(checkBodyType(req(method, headers), pathname) === null).toBe(allowed);
  });
});
