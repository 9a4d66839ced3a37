/**
 * What the boot script (src/boot.ts) leaves on `window` for the app, and which reads it makes. No
 * run-time imports and no side effects: the boot script inlines this, the app and tests import it.
 */

/** What the socket did before the app adopted it, in order. */
export type BootSocketEvent =
  { type: 'open' } | { type: 'message'; data: unknown } | { type: 'close'; code: number; reason: string };

/** What the boot script leaves on `window` for the app's socket. */
export interface BootSocket {
  url: string;
  socket: WebSocket;
  /** Everything that happened so far, oldest first. */
  events: BootSocketEvent[];
  /** Stops recording: the app listens itself from now on. */
  stop(): void;
}

/** One early GET, as it stands. */
export interface BootRead {
  /** Once the answer is in: the JSON body of a 2xx answer, or null for anything else. */
  settled?: { json: unknown } | null;
}

/**
 * The paths of the shell's reads (project selector, navigation, footer: on every screen), spelled
 * out because nothing is imported here; lib/boot-reads.ts names their routes, and its test holds
 * the two lists to the shared route table. Only reads a daemon answers without a bot service: an
 * error answer is not taken (the client makes its own), so /api/dynamic-routes, a 503 until
 * BOT_SERVICE_URL is set, would only be asked twice.
 */
export const BOOT_READS = ['/api/projects', '/api/health', '/api/bots/status'] as const;

/** A project ZIP chosen or dropped in the page's first frame (src/shell.html). */
export interface BootUpload {
  file: File;
  rapid: boolean;
}

/** Where the app takes the first frame's uploads (lib/boot-upload.ts). */
export interface BootUploads {
  /**
   * From now on every ZIP chosen in the first frame goes to `deliver`, the one chosen before at
   * once; answers a function that stops delivering.
   */
  adopt(deliver: (upload: BootUpload) => void): () => void;
}

/** The first frame's connection words: UI_TEXT's (boot-protocol.test.ts holds them together). */
export const BOOT_STATUS_TEXT = { connected: 'Connected', disconnected: 'Disconnected' } as const;

declare global {
  interface Window {
    __forgeBootSocket?: BootSocket;
    __forgeBootReads?: Record<string, BootRead>;
    __forgeBootUploads?: BootUploads;
  }
}
