/** The reason a signal from `withInterrupt` carries: the user pressed Ctrl+C (or we got SIGTERM). */
export class Interrupted extends Error {
  override readonly name = 'Interrupted';
  constructor(readonly signal: NodeJS.Signals) {
    super(`Interrupted by ${signal}`);
  }
}

export const isInterrupted = (err: unknown): err is Interrupted => err instanceof Interrupted;

/**
 * Run `fn` with an AbortSignal that Ctrl+C (SIGINT) or SIGTERM aborts, so a wait stops cleanly and a
 * download removes its partial file instead of the process dying mid-way. The handlers are removed
 * afterwards, so a later Ctrl+C behaves as usual.
 */
export async function withInterrupt<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((sig) => {
    const handler = () => controller.abort(new Interrupted(sig));
    process.once(sig, handler);
    return () => process.off(sig, handler);
  });
  try {
    return await fn(controller.signal);
  } finally {
    for (const off of handlers) off();
  }
}
