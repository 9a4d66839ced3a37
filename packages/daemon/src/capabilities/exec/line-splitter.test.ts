import { describe, expect, it } from 'vitest';
import { LineSplitter, type SplitLine } from './line-splitter.ts';

function split(chunks: (string | Buffer)[], maxLineLength = 10): SplitLine[] {
  const lines: SplitLine[] = [];
  const splitter = new LineSplitter(maxLineLength, (line) => lines.push(line));
  for (const chunk of chunks) splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  splitter.end();
  return lines;
}
const texts = (lines: SplitLine[]) => lines.map((line) => line.text);

describe('LineSplitter', () => {
  it('splits on LF and CRLF, keeps empty lines and a final line without a break', () => {
    const lines = split(['one\r\ntwo\n\nthr', 'ee\r', '\nlast']);
    expect(texts(lines)).toEqual(['one', 'two', '', 'three', 'last']);
    expect(lines.map((line) => line.rawBytes)).toEqual([5, 4, 1, 7, 4]);
  });

  it('keeps a CR that is not part of a line break', () => {
    expect(texts(split(['50%\r100%\n']))).toEqual(['50%\r100%']);
  });

  it('emits nothing for empty input or input ending in a line break', () => {
    expect(split([])).toEqual([]);
    expect(texts(split(['a\n']))).toEqual(['a']);
  });

  it('reassembles multi-byte characters split across chunks, even byte by byte', () => {
    const bytes = Buffer.from('héllo wörld ✓\n🙂 ok\n');
    const chunks = [...bytes].map((byte) => Buffer.from([byte]));
    expect(texts(split(chunks, 100))).toEqual(['héllo wörld ✓', '🙂 ok']);
  });

  it('cuts a long line and says how many characters were cut', () => {
    const [line] = split(['abcdefghijKLMNO\n']);
    expect(line).toEqual({ text: 'abcdefghij …[truncated 5 chars]', rawBytes: 16, truncatedChars: 5 });
  });

  it('counts cut characters, not bytes, and a CRLF is not one of them', () => {
    // 60 × "é" (2 bytes each) + CRLF in 3-byte chunks, so the cut happens while skipping.
    const bytes = Buffer.from(`${'é'.repeat(60)}\r\n`);
    const chunks = [];
    for (let i = 0; i < bytes.length; i += 3) chunks.push(bytes.subarray(i, i + 3));
    const [line] = split(chunks);
    expect(line?.truncatedChars).toBe(50);
    expect(line?.text).toBe(`${'é'.repeat(10)} …[truncated 50 chars]`);
    expect(line?.rawBytes).toBe(bytes.length);
  });

  it('never splits a surrogate pair when cutting', () => {
    const [line] = split([`${'a'.repeat(9)}🙂🙂\n`]);
    expect(line?.text).toBe(`${'a'.repeat(9)} …[truncated 2 chars]`);
  });

  it('holds a bounded amount of memory for a huge line without a break', () => {
    const emitted: SplitLine[] = [];
    const splitter = new LineSplitter(100, (line) => emitted.push(line));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    for (let i = 0; i < 160; i++) {
      splitter.push(chunk); // 10 MiB in total
      expect(splitter.bufferedBytes).toBeLessThanOrEqual(3 * 100 + 4);
    }
    expect(emitted).toEqual([]);
    splitter.push(Buffer.from('\nnext\n'));
    expect(emitted.map((line) => line.text)).toEqual([
      `${'x'.repeat(100)} …[truncated ${160 * 64 * 1024 - 100} chars]`,
      'next',
    ]);
    expect(emitted[0]?.rawBytes).toBe(160 * 64 * 1024 + 1);
  });

  it('cuts an over-long final line at end()', () => {
    expect(texts(split(['x'.repeat(25)]))).toEqual([`${'x'.repeat(10)} …[truncated 15 chars]`]);
  });
});
