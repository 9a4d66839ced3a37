import { useEffect, useState } from 'react';

/**
 * The first paint of the page: main.tsx holds it (`holdUntilFirstPaint`) and says when the first
 * render has been committed and painted (`markFirstPaint`). What the first screen does not need —
 * the protocol's schemas (lib/protocol.ts), the dashboard's secondary cards (`AfterFirstPaint`) —
 * waits for it, so the shell's scripts are all the browser fetches and runs before the page is
 * usable (docs/performance.md). Without a hold (tests, dev) it has happened already.
 */
let painted = true;
let done: Promise<void> = Promise.resolve();
let resolveDone: () => void = () => {};

export function holdUntilFirstPaint(): void {
  painted = false;
  done = new Promise<void>((resolve) => (resolveDone = resolve));
}

export function markFirstPaint(): void {
  painted = true;
  resolveDone();
}

/** Settles once the first paint is on screen. */
export const afterFirstPaint = (): Promise<void> => done;

/** True from the first paint on: a component renders its heavy part only then. */
export function useFirstPaintDone(): boolean {
  const [ready, setReady] = useState(painted);
  useEffect(() => {
    if (ready) return;
    let live = true;
    void done.then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [ready]);
  return ready;
}
