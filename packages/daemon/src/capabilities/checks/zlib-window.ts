/**
 * The smallest zlib window (9–15 bits) that still spans a whole `size`-byte input plus zlib's
 * lookahead, so the output equals a full-window compression while setup allocates far less (zlib
 * allocates per call in proportion to the window: half the time of a 2 KB file goes there).
 * Any inflater reads a stream made with a smaller window. Small files are compressed synchronously
 * in time slices (src/fs/time-slice.ts), where this setup cost is most of the work.
 */
export function windowBitsFor(size: number): number {
  const needed = size + 262;
  let bits = 9;
  while (bits < 15 && 1 << bits < needed) bits += 1;
  return bits;
}
