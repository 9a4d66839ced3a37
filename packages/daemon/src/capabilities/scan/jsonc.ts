/**
 * JSON and JSONC (the dialect of tsconfig.json, .eslintrc.json and .babelrc: comments and trailing
 * commas allowed) read with the place of the first error, so ScanBot can say "tsconfig.json:7: …".
 *
 * Comments and trailing commas are blanked with spaces rather than removed, so every offset of the
 * cleaned text is the offset in the file and JSON.parse's "at position N" points at the right line.
 */

export type JsonResult = { ok: true; value: unknown } | { ok: false; message: string; line: number };

/** Blank `//` and `/* *\/` comments and commas before `}` or `]` (outside strings), keeping offsets. */
export function stripJsonc(text: string): string {
  const out = text.split('');
  let i = 0;
  /** Offset of the last comma seen outside strings, while only blanks or comments followed it. */
  let pendingComma = -1;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      pendingComma = -1;
      i++;
      while (i < text.length && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (ch === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (ch === ',') pendingComma = i;
    else if ((ch === '}' || ch === ']') && pendingComma >= 0) {
      out[pendingComma] = ' ';
      pendingComma = -1;
    } else if (!/\s/.test(ch)) pendingComma = -1;
    i++;
  }
  return out.join('');
}

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Where V8's JSON.parse message says the error is ("… at position 42", "(line 3 column 5)"). */
function errorOffset(message: string, text: string): number {
  const lineCol = /line (\d+) column (\d+)/.exec(message);
  if (lineCol) {
    const lines = text.split('\n');
    const line = Math.min(Number(lineCol[1]), lines.length);
    return lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + Number(lineCol[2]) - 1;
  }
  const position = /at position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  // "Unexpected end of JSON input": the end is where it is missing something.
  return text.trimEnd().length;
}

/** The message without V8's position suffix, which the line replaces. */
const cleanMessage = (message: string): string =>
  message
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/\s+in JSON at position \d+/, '')
    .replace(/^JSON\.parse: /, '');

/** Parse strict JSON (`jsonc: false`) or JSONC; a failure says what and on which line. */
export function parseJson(text: string, opts: { jsonc: boolean }): JsonResult {
  const source = text.replace(/^\uFEFF/, '');
  const cleaned = opts.jsonc ? stripJsonc(source) : source;
  if (cleaned.trim() === '') return { ok: false, message: 'the file is empty', line: 1 };
  try {
    return { ok: true, value: JSON.parse(cleaned) as unknown };
  } catch (error) {
    const message = (error as Error).message;
    return {
      ok: false,
      message: cleanMessage(message),
      line: lineAt(cleaned, errorOffset(message, cleaned)),
    };
  }
}
