import { useEffect, useState } from 'react';
import { useStdout } from 'ink';

export interface TerminalSize {
  columns: number;
  /** Undefined when the output stream does not report rows (tests, some pipes). */
  rows: number | undefined;
}

const FALLBACK_COLUMNS = 80;

const read = (stdout: NodeJS.WriteStream): TerminalSize => ({
  columns: stdout.columns || FALLBACK_COLUMNS,
  rows: stdout.rows || undefined,
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
