/** One line cut from a byte stream. */
export interface SplitLine {
  /** The decoded line without its line break; cut and marked when it was too long. */
  text: string;
  /** Bytes the line occupied in the stream, line break included. */
  rawBytes: number;
  /** Characters cut from the line (0 when it was short enough). */
  truncatedChars: number;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits a byte stream into lines (`\n` or `\r\n`) with bounded memory.
 *
 * Works on bytes, not strings: `\n` never occurs inside a UTF-8 sequence, so chunk boundaries need no
 * decoder, and byte counts stay exact for the output cap. Of a line only the first
 * `3 × maxLineLength + 4` bytes are kept (always enough for `maxLineLength` UTF-16 units); the rest is
 * counted and skipped. A too-long line is emitted at its line break (or at `end()`), which is when the
 * number of cut characters is known.
 */
export class LineSplitter {
  readonly #maxLineLength: number;
  readonly #keepLimit: number;
  readonly #emit: (line: SplitLine) => void;
  #parts: Buffer[] = [];
  #keptBytes = 0;
  #skippedBytes = 0;
  #skippedChars = 0;
  #skippedEndsWithCr = false;

  constructor(maxLineLength: number, emit: (line: SplitLine) => void) {
    if (!Number.isInteger(maxLineLength) || maxLineLength < 1) {
      throw new RangeError(`maxLineLength must be a positive integer, got ${maxLineLength}`);
    }
    this.#maxLineLength = maxLineLength;
    this.#keepLimit = 3 * maxLineLength + 4;
    this.#emit = emit;
  }

  /** Bytes held for the current unfinished line (never more than the keep limit). */
  get bufferedBytes(): number {
    return this.#keptBytes;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(LF, start);
      if (nl === -1) {
        // The line continues in the next chunk: copy what we keep so the chunk itself can be freed.
        this.#append(chunk, start, chunk.length, true);
        return;
      }
      if (this.#keptBytes === 0 && this.#skippedBytes === 0 && nl - start <= this.#keepLimit) {
        // Fast path: the whole line is inside this chunk.
        this.#finishText(chunk.toString('utf8', start, nl), nl - start + 1);
      } else {
        this.#append(chunk, start, nl, false);
        this.#finishPending(1);
      }
      start = nl + 1;
    }
  }

  /** Emits a final line that had no line break. */
  end(): void {
    if (this.#keptBytes > 0 || this.#skippedBytes > 0) this.#finishPending(0);
  }

  #append(chunk: Buffer, start: number, end: number, copy: boolean): void {
    if (start === end) return;
    const keep = Math.min(this.#keepLimit - this.#keptBytes, end - start);
    if (keep > 0) {
      const part = chunk.subarray(start, start + keep);
      this.#parts.push(copy ? Buffer.from(part) : part);
      this.#keptBytes += keep;
    }
    if (start + keep < end) {
      this.#skippedBytes += end - (start + keep);
      this.#skippedChars += countUtf8Chars(chunk, start + keep, end);
      this.#skippedEndsWithCr = chunk[end - 1] === CR;
    }
  }

  #finishPending(lineBreakBytes: number): void {
    const kept = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#keptBytes);
    const rawBytes = this.#keptBytes + this.#skippedBytes + lineBreakBytes;
    const skippedChars = this.#skippedChars - (this.#skippedEndsWithCr && lineBreakBytes > 0 ? 1 : 0);
    const hadSkipped = this.#skippedBytes > 0;
    this.#parts = [];
    this.#keptBytes = 0;
    this.#skippedBytes = 0;
    this.#skippedChars = 0;
    this.#skippedEndsWithCr = false;
    this.#finishText(kept.toString('utf8'), rawBytes, hadSkipped ? skippedChars : 0, hadSkipped);
  }

  #finishText(decoded: string, rawBytes: number, skippedChars = 0, hadSkipped = false): void {
    // A CR before the LF belongs to the line break (CRLF); when bytes were skipped it was among them.
    let text = !hadSkipped && decoded.endsWith('\r') ? decoded.slice(0, -1) : decoded;
    if (text.length <= this.#maxLineLength && skippedChars === 0 && !hadSkipped) {
      this.#emit({ text, rawBytes, truncatedChars: 0 });
      return;
    }
    let cut = Math.min(this.#maxLineLength, text.length);
    // Never split a surrogate pair.
    if (cut > 0 && cut < text.length && isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
    const truncatedChars = countCodePoints(text.slice(cut)) + skippedChars;
    text = `${text.slice(0, cut)} …[truncated ${truncatedChars} chars]`;
    this.#emit({ text, rawBytes, truncatedChars });
  }
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

function countCodePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    if (!isHighSurrogate(s.charCodeAt(i))) n++;
  }
  return n;
}

/** Characters in a UTF-8 byte range: every byte that is not a continuation byte starts one. */
function countUtf8Chars(buf: Buffer, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    if ((buf[i]! & 0xc0) !== 0x80) n++;
  }
  return n;
}
