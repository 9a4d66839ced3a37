/** How long the daemon may be unreachable while a build is followed before forge gives up (exit 3). */
export const UNREACHABLE_GRACE_MS = 30_000;

export interface WatchOptions<T> {
  /** One look at the daemon: resolves with the result when done, undefined to keep watching. */
  check: () => Promise<T | undefined>;
  /** Delay before the next timed check (read after every check, so it can follow the socket's state). */
  delayMs: () => number;
  /** Stops the watch; the result rejects with the signal's reason. */
  signal?: AbortSignal;
  /** A line for the user (lost contact, back in contact). */
  onNotice?: (text: string) => void;
  unreachableGraceMs?: number;
  now?: () => number;
}

export interface Watch<T> {
  readonly result: Promise<T>;
  /** Check as soon as possible; calls made while a check runs fold into one more check after it. */
  trigger(): void;
}

/**
 * The loop under `--wait` and `logs -f`: check when something happened (a /ws message calls
 * `trigger`) and on a timer, so a lost event or a dropped socket can delay the end but never hide it.
 * An unreachable or restarting daemon is retried for a grace period; any other error ends the watch.
 */
export function startWatch<T>(options: WatchOptions<T>): Watch<T> {
  const now = options.now ?? Date.now;
  const grace = options.unreachableGraceMs ?? UNREACHABLE_GRACE_MS;
  let settled = false;
  let running = false;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failingSince: number | undefined;
  let resolveResult!: (value: T) => void;
  let rejectResult!: (err: unknown) => void;
  const result = new Promise<T>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });

  const onAbort = () => settle(() => rejectResult(options.signal?.reason));
  const settle = (fn: () => void) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    fn();
  };
  const schedule = () => {
    clearTimeout(timer);
    if (!settled) timer = setTimeout(trigger, options.delayMs());
  };

  async function trigger(): Promise<void> {
    if (settled) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        let value: T | undefined;
        try {
          value = await options.check();
        } catch (err) {
          if (!isTransient(err)) return settle(() => rejectResult(err));
          const first = failingSince === undefined;
          failingSince ??= now();
          if (now() - failingSince >= grace) return settle(() => rejectResult(err));
          if (first) {
            options.onNotice?.(
              `Lost contact with the daemon (${describe(err)}); retrying for up to ${Math.round(grace / 1000)}s.`,
            );
          }
          break;
        }
        if (failingSince !== undefined) {
          failingSince = undefined;
          options.onNotice?.('Back in contact with the daemon.');
        }
        if (settled) return;
        if (value !== undefined) return settle(() => resolveResult(value));
      } while (again && !settled);
    } finally {
      running = false;
      schedule();
    }
  }

  if (options.signal?.aborted) onAbort();
  else {
    options.signal?.addEventListener('abort', onAbort, { once: true });
    void trigger();
  }
  return { result, trigger: () => void trigger() };
}

/**
 * Worth retrying: the daemon is not answering, or answering that it is shutting down or behind a
 * proxy that lost it. Recognised by name so this module does not load @forge/shared.
 */
export function isTransient(err: unknown): boolean {
  const e = err as { name?: string; status?: number; code?: string } | undefined;
  if (e?.name === 'ForgeUnreachableError') return true;
  if (e?.name !== 'ForgeHttpError') return false;
  return e.status === 502 || e.status === 504 || (e.status === 503 && e.code === 'SHUTTING_DOWN');
}

const describe = (err: unknown): string => {
  const e = err as { serverMessage?: string; message?: string };
  return (e.serverMessage ?? e.message ?? String(err)).replace(/\.$/, '');
};
