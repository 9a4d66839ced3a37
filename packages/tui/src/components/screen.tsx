import type { ReactNode } from 'react';
import { Box } from 'ink';
import { useTerminalSize } from '../hooks/use-terminal-size.ts';

/**
 * The full-screen frame: header on top, the body taking all remaining rows, the hint bar at the
 * bottom. Sized to the terminal and re-laid out on resize. Later panes (fleet, build, logs) go in
 * `children`, typically side by side in a row Box.
 */
export function Screen({
  header,
  footer,
  children,
}: {
  header: ReactNode;
  footer: ReactNode;
  children: ReactNode;
}) {
  const { columns, rows } = useTerminalSize();
  return (
    <Box flexDirection="column" width={columns} height={rows}>
      {header}
      <Box
        flexGrow={1}
        flexDirection="column"
        borderStyle="round"
        borderColor="gray"
        paddingX={1}
        overflow="hidden"
      >
        {children}
      </Box>
      {footer}
    </Box>
  );
}
