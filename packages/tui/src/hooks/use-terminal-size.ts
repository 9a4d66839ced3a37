import { useEffect, useState } from 'react';
import { useStdout } from 'ink';
import { FALLBACK_COLUMNS, FALLBACK_ROWS } from '../constants.ts';

export interface TerminalSize {
  columns: number;
  rows: number;
}

// A stream that does not report a size (a pipe, a test renderer) gets a usual terminal's.
const read = (stdout: NodeJS.WriteStream): TerminalSize => ({
  columns: stdout.columns || FALLBACK_COLUMNS,
  rows: stdout.rows || FALLBACK_ROWS,
});

/** The terminal's size, updated on every 'resize' so the layout follows the window. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => read(stdout));
  useEffect(() => {
    const onResize = () => {
      const next = read(stdout);
      setSize((prev) => (prev.columns === next.columns && prev.rows === next.rows ? prev : next));
    };
    onResize();
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
