/** Where each part of the dashboard goes for a terminal size; pure, so it is tested on numbers. */
export interface Layout {
  columns: number;
  rows: number;
  /** The "no daemon" banner above the panes (0 while connected). */
  bannerRows: number;
  /** The status line, or the upload prompt with its help line. */
  statusRows: number;
  /** Rows of the panes (fleet on the left, build above logs on the right). */
  bodyRows: number;
  fleetWidth: number;
  mainWidth: number;
  buildRows: number;
  logsRows: number;
}

const HEADER_ROWS = 1;
const HINT_ROWS = 1;
export const BANNER_ROWS = 4;
const MIN_LOGS_ROWS = 5;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export function computeLayout(
  columns: number,
  rows: number,
  options: { banner: boolean; prompt: boolean },
): Layout {
  const bannerRows = options.banner ? BANNER_ROWS : 0;
  const statusRows = options.prompt ? 2 : 1;
  const bodyRows = Math.max(0, rows - HEADER_ROWS - HINT_ROWS - statusRows - bannerRows);
  // The fleet needs ~40 columns for "● OptimizationBot  building  job"; the build pane gets the rest.
  const fleetWidth = columns < 80 ? Math.floor(columns * 0.4) : clamp(Math.floor(columns * 0.36), 36, 52);
  const logsRows = Math.min(bodyRows, Math.max(MIN_LOGS_ROWS, Math.floor(bodyRows * 0.4)));
  return {
    columns,
    rows,
    bannerRows,
    statusRows,
    bodyRows,
    fleetWidth,
    mainWidth: columns - fleetWidth,
    buildRows: bodyRows - logsRows,
    logsRows,
  };
}

/** Rows and columns inside a pane: its border, its padding and its title line taken off. */
export const paneInnerRows = (height: number): number => Math.max(0, height - 3);
export const paneInnerColumns = (width: number): number => Math.max(0, width - 4);

export interface ScrollWindow<T> {
  visible: T[];
  /** Items hidden above and below the window. */
  above: number;
  below: number;
}

/**
 * The part of `items` a pane of `size` rows shows. `offset` counts rows scrolled away from the
 * anchor: from the newest line at the bottom (logs, output: 0 follows the tail) or from the top
 * (fleet). Offsets past the ends are clamped.
 */
export function scrollWindow<T>(
  items: readonly T[],
  size: number,
  offset: number,
  anchor: 'top' | 'bottom',
): ScrollWindow<T> {
  const rows = Math.max(0, size);
  const maxOffset = Math.max(0, items.length - rows);
  const shift = clamp(offset, 0, maxOffset);
  const start = anchor === 'bottom' ? Math.max(0, items.length - rows - shift) : shift;
  const visible = items.slice(start, start + rows);
  return { visible, above: start, below: items.length - start - visible.length };
}
