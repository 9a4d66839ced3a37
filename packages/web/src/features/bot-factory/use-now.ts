import { useEffect, useState } from 'react';

/** The current time, moved on every `tickMs`, for "3 min ago" texts that must age while shown. */
export function useNow(tickMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}
