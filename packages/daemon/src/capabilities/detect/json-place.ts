/**
 * Where JSON.parse stopped in `text`, as a line and column a person can go to (1-based), with what
 * is wrong there: the parser's own words, or — when it stopped at a closing } or ] right after a
 * comma — that comma, since JSON allows no trailing comma and that is the usual slip of a hand edit.
 * Null when the parser's message names no position.
 */
export function jsonErrorPlace(
  text: string,
  error: unknown,
): { line: number; column: number; what: string } | null {
  const message = error instanceof Error ? error.message : String(error);
  const at = /at position (\d+)/.exec(message);
  if (!at) return null;
  let offset = Number(at[1]);
  let what = message.replace(/ in JSON at position \d+.*$/s, '');
  const stop = text[offset];
  if (stop === '}' || stop === ']') {
    let before = offset - 1;
    while (before >= 0 && /\s/.test(text[before]!)) before--;
    if (text[before] === ',') {
      offset = before;
      what = `a comma before the closing ${stop} (JSON allows no trailing comma)`;
    }
  }
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, column: lines.at(-1)!.length + 1, what };
}
