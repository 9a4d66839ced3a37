import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

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

/**
 * The object at `path` from the root (an empty path is the root itself), read by jsonc-parser: a
 * syntax tree with every node's offset, so the edit lands between the bytes it names. Comments are
 * read past (a package.json with a comment is edited, the comment kept); any other error refuses the
 * edit, as does a `path` that does not lead to an object.
 */
function objectAt(text: string, path: readonly string[]): ObjectSpan {
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  const errors: ParseError[] = [];
  const root = parseTree(text.slice(bom), errors, { allowTrailingComma: false, disallowComments: false });
  const error = errors[0];
  if (error || !root) {
    throw new SyntaxError(
      `${error ? printParseErrorCode(error.error) : 'no JSON value'} at offset ${(error?.offset ?? 0) + bom}`,
    );
  }
  let node: Node | undefined = root;
  for (const segment of path) {
    if (node.type !== 'object') break;
    // The first member of that name, as a reader of the file sees it.
    node = node.children?.find((p) => p.children?.[0]?.value === segment)?.children?.[1];
    if (!node) throw new Error(`no "${path.join('.')}" object`);
  }
  if (node.type !== 'object') throw new SyntaxError(`expected an object at offset ${node.offset + bom}`);
  const members = (node.children ?? []).map((property): Member => {
    const [key, value] = property.children as [Node, Node];
    return {
      key: key.value as string,
      keyStart: key.offset + bom,
      valueStart: value.offset + bom,
      valueEnd: value.offset + value.length + bom,
    };
  });
  return { open: node.offset + bom, close: node.offset + node.length - 1 + bom, members };
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
  const target = objectAt(text, path);
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
  const target = objectAt(text, path);
  const members = target.members.filter((m) => m.key === key);
  if (members.length !== 1)
    throw new Error(`"${key}" is ${members.length ? 'there more than once' : 'not there'}`);
  const member = members[0]!;
  return text.slice(0, member.valueStart) + JSON.stringify(value) + text.slice(member.valueEnd);
}
