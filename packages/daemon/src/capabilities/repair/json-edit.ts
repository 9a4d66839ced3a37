/**
 * Adding a member to a JSON object by editing the text, not by re-serialising it: the rest of the
 * file keeps its indentation, line endings, key order and the way its arrays are laid out, so the
 * diff of a repair shows only what the repair changed.
 */

/** Where one member of an object sits in the text. */
interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  /** Just past the value. */
  valueEnd: number;
}

/** Where an object sits: its braces and members. */
interface ObjectSpan {
  open: number;
  close: number;
  members: Member[];
}

class JsonScanner {
  private pos = 0;
  constructor(private readonly text: string) {}

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  private fail(what: string): never {
    throw new SyntaxError(`${what} at offset ${this.pos}`);
  }

  private string(): string {
    const start = this.pos;
    if (this.text[this.pos] !== '"') this.fail('expected a string');
    this.pos++;
    while (this.pos < this.text.length && this.text[this.pos] !== '"') {
      this.pos += this.text[this.pos] === '\\' ? 2 : 1;
    }
    if (this.pos >= this.text.length) this.fail('unterminated string');
    this.pos++;
    return JSON.parse(this.text.slice(start, this.pos)) as string;
  }

  /** Skips one value; returns the object span when it is an object. */
  value(): ObjectSpan | null {
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') {
      this.pos++;
      this.skipSpace();
      if (this.text[this.pos] === ']') {
        this.pos++;
        return null;
      }
      for (;;) {
        this.value();
        this.skipSpace();
        const next = this.text[this.pos++];
        if (next === ']') return null;
        if (next !== ',') this.fail('expected , or ]');
      }
    }
    if (c === '"') {
      this.string();
      return null;
    }
    const literal = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(this.text.slice(this.pos));
    if (!literal) this.fail('expected a value');
    this.pos += literal[0].length;
    return null;
  }

  object(): ObjectSpan {
    const open = this.pos;
    this.pos++;
    const members: Member[] = [];
    this.skipSpace();
    if (this.text[this.pos] === '}') return { open, close: this.pos++, members };
    for (;;) {
      this.skipSpace();
      const keyStart = this.pos;
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos++] !== ':') this.fail('expected :');
      this.skipSpace();
      const valueStart = this.pos;
      this.value();
      members.push({ key, keyStart, valueStart, valueEnd: this.pos });
      this.skipSpace();
      const next = this.text[this.pos++];
      if (next === '}') return { open, close: this.pos - 1, members };
      if (next !== ',') this.fail('expected , or }');
    }
  }

  /** The object whose value starts at `at`. */
  objectAt(at: number): ObjectSpan {
    this.pos = at;
    this.skipSpace();
    if (this.text[this.pos] !== '{') this.fail('expected an object');
    return this.object();
  }
}

/** The whitespace at the start of the line that holds `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** The file's own indentation unit (two spaces when it shows none). */
export function detectIndent(text: string): string {
  const first = /\n([ \t]+)\S/.exec(text);
  return first?.[1] ?? '  ';
}

const newlineOf = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n');

/** Keys npm would write in this order (`localeCompare` with "en", as npm sorts dependencies). */
export const isSorted = (keys: readonly string[]): boolean =>
  keys.every((key, i) => i === 0 || keys[i - 1]!.localeCompare(key, 'en') <= 0);

export interface AddMemberOptions {
  /** Insert in sorted position when the object's keys are sorted already; else append. */
  keepSorted?: boolean;
  /** For a new member of the root object: insert it just before this key when present. */
  before?: string;
  /** For a new member of the root object: insert it just after this key when present (wins over `before`). */
  after?: string;
}

/**
 * Add `"key": value` to the object found at `path` from the root (an empty path is the root itself).
 * `value` is any JSON value; an object is laid out over several lines like its parent. The object at
 * `path` must exist and must not have `key` already.
 */
export function addMember(
  text: string,
  path: readonly string[],
  key: string,
  value: unknown,
  options: AddMemberOptions = {},
): string {
  const scanner = new JsonScanner(text);
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  let target = scanner.objectAt(bom);
  for (const segment of path) {
    const member = target.members.find((m) => m.key === segment);
    if (!member) throw new Error(`no "${path.join('.')}" object`);
    target = scanner.objectAt(member.valueStart);
  }
  if (target.members.some((m) => m.key === key)) throw new Error(`"${key}" is already there`);

  const nl = newlineOf(text);
  const unit = detectIndent(text);
  const first = target.members[0];
  // A member on the same line as the opening brace: the object is written on one line.
  const inline = first !== undefined && !text.slice(target.open, first.keyStart).includes('\n');
  const outer = lineIndent(text, target.open);
  const inner = first && !inline ? lineIndent(text, first.keyStart) : outer + unit;
  const render = (v: unknown): string =>
    JSON.stringify(v, null, inline ? undefined : unit)
      .split('\n')
      .join(nl + inner);
  const member = `${JSON.stringify(key)}: ${render(value)}`;

  if (!first) {
    const body = inline ? member : `${nl}${inner}${member}${nl}${outer}`;
    return text.slice(0, target.open + 1) + body + text.slice(target.close);
  }

  const keys = target.members.map((m) => m.key);
  let index = target.members.length;
  if (options.keepSorted && isSorted(keys)) {
    index = keys.findIndex((k) => key.localeCompare(k, 'en') < 0);
    if (index === -1) index = target.members.length;
  } else if (options.after !== undefined && keys.includes(options.after)) {
    index = keys.indexOf(options.after) + 1;
  } else if (options.before !== undefined && keys.includes(options.before)) {
    index = keys.indexOf(options.before);
  }
  const separator = inline ? ' ' : `${nl}${inner}`;
  if (index === 0) {
    return text.slice(0, first.keyStart) + `${member},${separator}` + text.slice(first.keyStart);
  }
  const previous = target.members[index - 1]!;
  return text.slice(0, previous.valueEnd) + `,${separator}${member}` + text.slice(previous.valueEnd);
}

/**
 * Replace the value of the existing member `key` of the object at `path` with `value` (any JSON
 * value, written on one line), leaving every other byte of the text as it was.
 */
export function setMember(text: string, path: readonly string[], key: string, value: unknown): string {
  const scanner = new JsonScanner(text);
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  let target = scanner.objectAt(bom);
  for (const segment of path) {
    const member = target.members.find((m) => m.key === segment);
    if (!member) throw new Error(`no "${path.join('.')}" object`);
    target = scanner.objectAt(member.valueStart);
  }
  const members = target.members.filter((m) => m.key === key);
  if (members.length !== 1)
    throw new Error(`"${key}" is ${members.length ? 'there more than once' : 'not there'}`);
  const member = members[0]!;
  return text.slice(0, member.valueStart) + JSON.stringify(value) + text.slice(member.valueEnd);
}
