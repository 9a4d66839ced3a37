import { describe, expect, it } from 'vitest';
import { lineAt, parseJson } from './jsonc.ts';

describe('JSON and JSONC', () => {
  it('reads JSONC: comments and trailing commas, never inside strings', () => {
    const text =
      '{\n  // a comment\n  "url": "http://x//y", /* block */\n  "list": [1, 2,],\n  "a,": "}",\n}';
    expect(parseJson(text, { jsonc: true })).toEqual({
      ok: true,
      value: { url: 'http://x//y', list: [1, 2], 'a,': '}' },
    });
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

  it('says where JSONC breaks, in the words JSON.parse uses, and that only comments are no document', () => {
    expect(parseJson('{\n  // a\n  "a": 1\n  "b": 2\n}', { jsonc: true })).toEqual({
      ok: false,
      message: "Expected ','",
      line: 4,
    });
    expect(parseJson('{\n  /* open\n', { jsonc: true })).toMatchObject({ ok: false, line: 2 });
    expect(parseJson('// nothing but a comment\n\n', { jsonc: true })).toEqual({
      ok: false,
      message: 'the file is empty',
      line: 1,
    });
    expect(parseJson('{ "a": 1 }\n{ "b": 2 }', { jsonc: true })).toEqual({
      ok: false,
      message: 'Unexpected non-whitespace character after JSON',
      line: 2,
    });
  });

  it('counts lines from offsets', () => {
    expect(lineAt('a\nb\nc', 0)).toBe(1);
    expect(lineAt('a\nb\nc', 2)).toBe(2);
    expect(lineAt('a\nb\nc', 99)).toBe(3);
  });
});
