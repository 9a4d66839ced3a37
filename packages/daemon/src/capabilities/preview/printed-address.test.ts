import { describe, expect, it } from 'vitest';
import { inspectorPort, printedAddress } from './printed-address.ts';

describe('printedAddress', () => {
  it.each([
    // Vite's banner, colour codes and all.
    [
      '  \u001b[32m➜\u001b[39m  \u001b[1mLocal\u001b[22m:   \u001b[36mhttp://localhost:\u001b[1m5173\u001b[22m/\u001b[39m',
      5173,
      'http://localhost:5173/',
    ],
    ['Server ready at http://127.0.0.1:3000', 3000, 'http://127.0.0.1:3000'],
    ['serving on http://0.0.0.0:8080/app (press ctrl+c)', 8080, 'http://0.0.0.0:8080/app'],
    ['api: http://[::1]:4000/graphql', 4000, 'http://[::1]:4000/graphql'],
    ['Listening on port 8080', 8080, 'Listening on port 8080'],
    ['Express server listening on port: 3001', 3001, 'Express server listening on port: 3001'],
    ['listening on :9000', 9000, 'listening on :9000'],
  ])('%s → %i', (line, port, text) => {
    expect(printedAddress(line)).toMatchObject({ port, text });
  });

  it('says https for an https URL', () => {
    expect(printedAddress('Local: https://localhost:8443/')).toMatchObject({ port: 8443, scheme: 'https' });
  });

  it('finds no address where there is none, or only the inspector', () => {
    for (const line of [
      'compiled successfully in 1.2s',
      'See https://nextjs.org/docs for more',
      'port 99999 is not a port',
      'Debugger listening on ws://127.0.0.1:9229/1c3b3c6c-1f0e-4b9a-9d2c-4e2f0a1b2c3d',
    ]) {
      expect(printedAddress(line), line).toBeNull();
    }
    expect(inspectorPort('Debugger listening on ws://127.0.0.1:9229/1c3b')).toBe(9229);
    expect(inspectorPort('Listening on port 8080')).toBeNull();
  });
});
