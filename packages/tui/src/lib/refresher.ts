/**
 * Runs `task` when triggered, never twice at once: triggers that arrive while it runs fold into a
 * single run after it. A burst of /ws events thus costs at most two requests, and a slow daemon
 * never has a queue of them piling up.
 */
export function createRefresher(task: () => Promise<void>): { trigger(): void; dispose(): void } {
  let running = false;
  let again = false;
  let disposed = false;

  const run = async () => {
    if (disposed) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        try {
          await task();
        } catch {
          // The task reports its own errors; a failed run must not stop later ones.
        }
      } while (again && !disposed);
    } finally {
      running = false;
    }
  };

  return {
    trigger: () => void run(),
    dispose: () => {
      disposed = true;
    },
  };
}
