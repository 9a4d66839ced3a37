import type { Tone } from './terminal.ts';

/** One table cell: its text, and a colour applied after padding (so escape codes never skew widths). */
export type Cell = string | { text: string; tone?: Tone };

const text = (cell: Cell): string => (typeof cell === 'string' ? cell : cell.text);
const tone = (cell: Cell): Tone | undefined => (typeof cell === 'string' ? undefined : cell.tone);

/**
 * Columns separated by two spaces, each as wide as its widest cell; the last column is not padded
 * (no trailing spaces). The header is shown as is (upper case by convention).
 */
export function formatTable(
  header: string[],
  rows: Cell[][],
  paint: (tone: Tone | undefined, text: string) => string,
): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => text(r[i] ?? '').length)));
  const line = (cells: Cell[], headerRow: boolean) =>
    cells
      .map((cell, i) => {
        const value = i === cells.length - 1 ? text(cell) : text(cell).padEnd(widths[i] ?? 0);
        return headerRow ? paint('dim', value) : paint(tone(cell), value);
      })
      .join('  ')
      .trimEnd();
  return [line(header, true), ...rows.map((r) => line(r, false))];
}
