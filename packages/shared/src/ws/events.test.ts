import { describe, expect, it } from 'vitest';
import { ClientMessage, parseServerFrame, ServerMessage } from './events.ts';

describe('ServerMessage', () => {
  it('keeps the documented type names', () => {
    const types = ServerMessage.options.map((o) => o.shape.type.value);
    for (const t of [
      'build-output',
      'build-error',
      'project-files-updated',
      'file-content-updated',
      'bot-assigned',
      'rapid-build-start',
      'build_complete',
    ]) {
      expect(types).toContain(t);
    }
  });
  it('validates stages against the documented list', () => {
    expect(
      ServerMessage.safeParse({ type: 'build-stage', status: 'running', stage: 'build-start' }).success,
    ).toBe(true);
    expect(ServerMessage.safeParse({ type: 'build-stage', stage: 'compiling' }).success).toBe(false);
  });
});

describe('parseServerFrame', () => {
  it('parses a known message', () => {
    const frame = parseServerFrame(
      JSON.stringify({ type: 'build-output', output: 'ok', projectName: 'app' }),
    );
    expect(frame).toEqual({
      kind: 'message',
      message: { type: 'build-output', output: 'ok', projectName: 'app' },
    });
  });
  it('turns non-JSON text into a plain info line (docs/product.md#websocket-messages)', () => {
    expect(parseServerFrame('hello there')).toEqual({
      kind: 'message',
      message: { type: 'log', botName: 'SYSTEM', level: 'info', message: 'hello there' },
    });
  });
  it('reports JSON it does not know instead of guessing', () => {
    expect(parseServerFrame('{"type":"mystery"}')).toEqual({ kind: 'unknown', value: { type: 'mystery' } });
  });
});

describe('ClientMessage', () => {
  it('accepts a ping and refuses anything else', () => {
    expect(ClientMessage.safeParse({ type: 'ping', id: '1' }).success).toBe(true);
    expect(ClientMessage.safeParse({ type: 'exec', cmd: 'rm -rf /' }).success).toBe(false);
    expect(ClientMessage.safeParse({ type: 'ping', id: 'x'.repeat(65) }).success).toBe(false);
  });
});
