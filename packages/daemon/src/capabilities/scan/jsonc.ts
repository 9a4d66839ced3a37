import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/**
 * JSON and JSONC (the dialect of tsconfig.json, .eslintrc.json and .babelrc: comments and trailing
 * commas allowed) read with the place of the first error, so ScanBot can say "tsconfig.json:7: …".
 * Strict JSON is JSON.parse's; JSONC is jsonc-parser's, which reports each error at its offset.
 */

export type JsonResult = { ok: true; value: unknown } | { ok: false; message: string; line: number };

/** jsonc-parser's error codes, by name (its enum is a const enum), in JSON.parse's words. */
const JSONC_ERRORS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'Unexpected token',
  InvalidNumberFormat: 'Invalid number',
  PropertyNameExpected: 'Expected double-quoted property name',
  ValueExpected: 'Expected a value',
  ColonExpected: "Expected ':' after property name",
  CommaExpected: "Expected ','",
  CloseBraceExpected: "Expected ',' or '}' after property value",
  CloseBracketExpected: "Expected ',' or ']' after array element",
  EndOfFileExpected: 'Unexpected non-whitespace character after JSON',
  InvalidCommentToken: 'Invalid comment',
  UnexpectedEndOfComment: 'Unterminated comment',
  UnexpectedEndOfString: 'Unterminated string',
  UnexpectedEndOfNumber: 'Unterminated number',
  InvalidUnicode: 'Bad Unicode escape',
  InvalidEscapeCharacter: 'Bad escaped character',
  InvalidCharacter: 'Bad control character in string literal',
};

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
  if (opts.jsonc) {
    const errors: ParseError[] = [];
    const value = parse(source, errors, { allowTrailingComma: true, disallowComments: false });
    const first = errors[0];
    if (first === undefined) return { ok: true, value: value as unknown };
    // An error at the end is about what is missing there: the line of the last text, not of the blank
    // lines after it. A file of blanks and comments has no value at all.
    const end = source.trimEnd().length;
    if (value === undefined && printParseErrorCode(first.error) === 'ValueExpected' && first.offset >= end) {
      return { ok: false, message: 'the file is empty', line: 1 };
    }
    return {
      ok: false,
      message: JSONC_ERRORS[printParseErrorCode(first.error)] ?? printParseErrorCode(first.error),
      line: lineAt(source, Math.min(first.offset, end)),
    };
  }
  if (source.trim() === '') return { ok: false, message: 'the file is empty', line: 1 };
  try {
    return { ok: true, value: JSON.parse(source) as unknown };
  } catch (error) {
    const message = (error as Error).message;
    return {
      ok: false,
      message: cleanMessage(message),
      line: lineAt(source, errorOffset(message, source)),
    };
  }
}
