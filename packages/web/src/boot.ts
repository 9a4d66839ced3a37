/**
 * The boot script: a separate, tiny entry that index.html carries inline as a classic script, first
 * in its head (vite.config.ts, bootScript), so the parser runs it before it has asked for anything
 * else; <body> may not be parsed yet. While the app's scripts are still downloading and evaluating, it
 * dials /ws and asks for the shell's first reads, instead of both waiting for the first render:
 * - the socket: the app adopts it and everything it received so far (lib/early-socket.ts);
 * - the reads: the GETs every screen's shell makes (BOOT_READS); the app takes their answers into
 *   its query cache before it renders (lib/boot-reads.ts), validated as any answer is;
 * - the dashboard's first frame (src/shell.html, in the page at "/"), until the app renders over it:
 *   its status says whether this socket is open, and its upload control and drop area keep the ZIP
 *   chosen there for the app (lib/boot-upload.ts), which uploads it as if chosen in its own panel.
 *
 * It must import nothing at run time but boot-protocol.ts, which is bundled in: any chunk it imported
 * would make it wait for the app's chunks (vite.config.ts refuses to build that).
 */

import {
  BOOT_READS,
  BOOT_STATUS_TEXT,
  type BootRead,
  type BootSocketEvent,
  type BootUpload,
} from './boot-protocol.ts';

/**
 * The page's first frame, when it has one, once parsed (the boot script runs from the page's head).
 * It stays this element after the app has rendered over it (then detached).
 */
let shell = document.querySelector<HTMLElement>('[data-boot-shell]');
const shellPart = <T extends Element = HTMLElement>(name: string): T | null =>
  (shell ??= document.querySelector<HTMLElement>('[data-boot-shell]'))?.querySelector<T>(
    `[data-boot-${name}]`,
  ) ?? null;

/** What the socket is, as far as the first frame is concerned: null until it opened or closed. */
let connectedNow: boolean | null = null;

/** The first frame's status follows the socket until the app adopts it. */
function showConnected(connected: boolean): void {
  connectedNow = connected;
  const status = shellPart('status');
  const text = shellPart('status-text');
  if (!status || !text) return;
  status.dataset.bootStatus = connected ? 'connected' : 'disconnected';
  text.textContent = connected ? BOOT_STATUS_TEXT.connected : BOOT_STATUS_TEXT.disconnected;
}

// The same URL as @forge/shared's socketUrl('') (WS_PATH); the app adopts the socket only if the
// URLs agree.
const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;

try {
  const socket = new WebSocket(url);
  const events: BootSocketEvent[] = [];
  const onOpen = () => {
    events.push({ type: 'open' });
    showConnected(true);
  };
  const onMessage = (ev: MessageEvent) => events.push({ type: 'message', data: ev.data });
  const onClose = (ev: CloseEvent) => {
    events.push({ type: 'close', code: ev.code, reason: ev.reason });
    showConnected(false);
  };
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

// The first frame's uploads: kept until the app adopts them, then handed to it as they come (a file
// dialog opened from the first frame may close after the app has rendered over it: the listeners
// are on the frame's own elements, which still fire once detached).
let chosen: BootUpload | null = null;
let deliver: ((upload: BootUpload) => void) | null = null;
let rapid = false;
const choose = (file: File | undefined) => {
  if (!file) return;
  const upload = { file, rapid };
  if (deliver) return deliver(upload);
  chosen = upload;
  const note = shellPart('upload-note');
  if (note) note.textContent = `${file.name}: uploading as soon as the workspace has loaded…`;
  for (const button of shell?.querySelectorAll<HTMLButtonElement>('[data-boot-upload]') ?? []) {
    button.disabled = true;
  }
};
const wire = () => {
  // The socket may have answered before the frame was parsed.
  if (connectedNow !== null) showConnected(connectedNow);
  const input = shellPart<HTMLInputElement>('file');
  if (shell && input) {
    input.addEventListener('change', () => {
      choose(input.files?.[0]);
      input.value = '';
    });
    for (const button of shell.querySelectorAll<HTMLButtonElement>('[data-boot-upload]')) {
      button.addEventListener('click', () => {
        rapid = button.dataset.bootUpload === 'rapid';
        input.click();
      });
    }
    const hasFiles = (ev: DragEvent) => Array.from(ev.dataTransfer?.types ?? []).includes('Files');
    shell.addEventListener('dragover', (ev) => {
      if (hasFiles(ev)) ev.preventDefault();
    });
    shell.addEventListener('drop', (ev) => {
      if (!hasFiles(ev)) return;
      ev.preventDefault();
      rapid = false;
      if (!chosen) choose(ev.dataTransfer?.files[0]);
    });
  }
};
// Once the page is parsed, which is before the app's (deferred) script runs.
if (document.readyState === 'loading') document.addEventListener('readystatechange', wire, { once: true });
else wire();
window.__forgeBootUploads = {
  adopt(next) {
    deliver = next;
    const first = chosen;
    chosen = null;
    if (first) next(first);
    return () => {
      if (deliver === next) deliver = null;
    };
  },
};
