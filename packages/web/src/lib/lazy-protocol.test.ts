import { describe, expect, it, vi } from 'vitest';
import { ForgeProtocolError, parseServerFrame, type ServerMessage } from '@forge/shared';
import { bootAnswer, takeBootReads } from './boot-reads.ts';
import { parseInOrder } from './early-socket.ts';
import { createQueryClient, routeQuery } from './query-client.ts';

const health = { ok: true, version: '1.2.3', uptimeMs: 5 };

describe('data that enters before the protocol is loaded (lib/protocol.ts)', () => {
  it("answers the first read from the boot script's early answer, validated like any answer", async () => {
    const fetchMock = vi.fn(async () => Response.json(health));
    vi.stubGlobal('fetch', fetchMock);
    takeBootReads({ __forgeBootReads: { '/api/health': { settled: { json: health } } } });

    expect(await createQueryClient().fetchQuery(routeQuery('health'))).toEqual(health);
    expect(fetchMock).not.toHaveBeenCalled();
    // Taken once: the next read asks the daemon.
    expect(await createQueryClient().fetchQuery(routeQuery('health'))).toEqual(health);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('refuses a malformed early answer with the protocol error, as it refuses one from the network', async () => {
    const fetchMock = vi.fn(async () => Response.json(health));
    vi.stubGlobal('fetch', fetchMock);
    takeBootReads({ __forgeBootReads: { '/api/health': { settled: { json: { ok: 'yes' } } } } });

    const read = createQueryClient().fetchQuery(routeQuery('health'));
    await expect(read).rejects.toBeInstanceOf(ForgeProtocolError);
    await expect(read).rejects.toThrow(/GET \/api\/health answered an unexpected shape/);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(bootAnswer('/api/health')).toBeNull();
  });

  it('reads socket frames in the order they came, holding those before the schemas until they are in', async () => {
    const messages: ServerMessage[] = [];
    const unknown: unknown[] = [];
    let loaded!: () => void;
    const schemas = new Promise<{ parseServerFrame: typeof parseServerFrame }>((resolve) => {
      loaded = () => resolve({ parseServerFrame });
    });
    const load = vi.fn(() => schemas);
    const receive = parseInOrder(
      { onMessage: (m) => messages.push(m), onUnknown: (v) => unknown.push(v) },
      load,
    );

    receive(JSON.stringify({ type: 'hello', version: '1.0.0', clientId: 'c1' }));
    // Malformed: a known type without its fields is not handed on as that message.
    receive(JSON.stringify({ type: 'build-output', buildId: 7 }));
    receive('plain text from the daemon');
    expect(messages).toEqual([]);
    expect(load).toHaveBeenCalledTimes(1);

    loaded();
    await schemas;
    await Promise.resolve();
    receive(JSON.stringify({ type: 'hello', version: '1.0.0', clientId: 'c2' }));

    expect(messages.map((m) => m.type)).toEqual(['hello', 'log', 'hello']);
    expect(messages[0]).toMatchObject({ clientId: 'c1' });
    expect(messages[1]).toMatchObject({ message: 'plain text from the daemon' });
    expect(unknown).toEqual([{ type: 'build-output', buildId: 7 }]);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
