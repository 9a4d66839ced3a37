import { describe, expect, it } from 'vitest';
import { lineAt, parseJson, stripJsonc } from './jsonc.ts';

describe('JSON and JSONC', () => {
  it('reads JSONC: comments and trailing commas, never inside strings', () => {
    const text =
      '{\n  // a comment\n  "url": "http://x//y", /* block */\n  "list": [1, 2,],\n  "a,": "}",\n}';
    expect(parseJson(text, { jsonc: true })).toEqual({
      ok: true,
      value: { url: 'http://x//y', list: [1, 2], 'a,': '}' },
    });
    // Offsets are kept, so error lines stay true.
    expect(stripJsonc(text)).toHaveLength(text.length);
  });

  it('says on which line strict JSON breaks', () => {
    expect(parseJson('{\n  "a": 1,\n}', { jsonc: false })).toMatchObject({ ok: false, line: 3 });
    expect(parseJson('{\n  "a": 1\n  "b": 2\n}', { jsonc: false })).toMatchObject({
      ok: false,
      line: 3,
      message: "Expected ',' or '}' after property value",
    });
    expect(parseJson('{\n  "a": [1,\n', { jsonc: true })).toMatchObject({ ok: false, line: 2 });
    expect(parseJson('  \n', { jsonc: false })).toEqual({ ok: false, message: 'the file is empty', line: 1 });
    expect(parseJson('\uFEFF{"a": 1}', { jsonc: false })).toEqual({ ok: true, value: { a: 1 } });
  });

  it('counts lines from offsets', () => {
    expect(lineAt('a\nb\nc', 0)).toBe(1);
    expect(lineAt('a\nb\nc', 2)).toBe(2);
    expect(lineAt('a\nb\nc', 99)).toBe(3);
  });
});
