/**
 * The boot script: a separate, tiny entry that index.html loads `async` ahead of the app
 * (vite.config.ts, bootScript). While the app's scripts are still downloading and evaluating, it
 * dials /ws and asks for the shell's first reads, instead of both waiting for the first render:
 * - the socket: the app adopts it and everything it received so far (lib/early-socket.ts);
 * - the reads: the GETs every screen's shell makes (BOOT_READS); the app takes their answers into
 *   its query cache before it renders (lib/boot-reads.ts), validated as any answer is.
 *
 * It must import nothing at run time but boot-protocol.ts, which is inlined: any chunk it imported
 * would make it wait for the app's chunks (vite.config.ts refuses to build that).
 */

import { BOOT_READS, type BootRead, type BootSocketEvent } from './boot-protocol.ts';

// The same URL as @forge/shared's socketUrl('') (WS_PATH); the app adopts the socket only if the
// URLs agree.
const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;

try {
  const socket = new WebSocket(url);
  const events: BootSocketEvent[] = [];
  const onOpen = () => events.push({ type: 'open' });
  const onMessage = (ev: MessageEvent) => events.push({ type: 'message', data: ev.data });
  const onClose = (ev: CloseEvent) => events.push({ type: 'close', code: ev.code, reason: ev.reason });
  socket.addEventListener('open', onOpen);
  socket.addEventListener('message', onMessage);
  socket.addEventListener('close', onClose);
  window.__forgeBootSocket = {
    url,
    socket,
    events,
    stop() {
      socket.removeEventListener('open', onOpen);
      socket.removeEventListener('message', onMessage);
      socket.removeEventListener('close', onClose);
    },
  };
} catch {
  // No early socket (a refused URL): the app dials its own, as it would without this script.
}

// The same request as the app's client makes (lib/api.ts): JSON, cookies included.
const reads: Record<string, BootRead> = {};
for (const path of BOOT_READS) {
  const read: BootRead = {};
  reads[path] = read;
  fetch(path, { headers: { accept: 'application/json' }, credentials: 'include' })
    .then((res) => (res.ok ? (res.json() as Promise<unknown>) : null))
    .then(
      (json) => (read.settled = json === null ? null : { json }),
      () => (read.settled = null),
    );
}
window.__forgeBootReads = reads;
