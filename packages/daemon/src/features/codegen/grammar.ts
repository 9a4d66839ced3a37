import type { CodeKind } from '@forge/shared';
import { fieldName, pascalName, wordsOf } from './names.ts';

/**
 * CodeGenBot's small grammar (docs/code-generator.md): it reads a name, typed fields or parameters
 * and, for a function, a return type out of a free-text description. Whatever it does not
 * recognise is left alone, never an error: a description with nothing it knows still gives a name
 * made of its words and no fields.
 */

/** A type as the description states it; each kind's emitter turns it into TypeScript, zod or checks. */
export type TypeNode =
  | { kind: 'string'; min?: number; max?: number }
  | { kind: 'number'; integer: boolean; min?: number; max?: number; gt?: number; lt?: number }
  | { kind: 'boolean' }
  | { kind: 'date' }
  | { kind: 'uuid' }
  | { kind: 'email' }
  | { kind: 'url' }
  | { kind: 'unknown' }
  /** A plain object: `object`, `json`, `record`, `Record<…>`. */
  | { kind: 'record' }
  /** React content (`ReactNode`, `node`, `element`). */
  | { kind: 'node' }
  /** Only as a return type. */
  | { kind: 'void' }
  | { kind: 'enum'; values: string[] }
  | { kind: 'array'; of: TypeNode; min?: number; max?: number }
  /** Another named type (`Item`, `Address`), declared by the emitter. */
  | { kind: 'ref'; name: string }
  | { kind: 'callback'; params: Field[]; returns: TypeNode };

export interface Field {
  name: string;
  type: TypeNode;
  optional: boolean;
}

/** What the grammar read. */
export interface Spec {
  kind: CodeKind;
  description: string;
  /** The name as words the user wrote ("UserCard", "user card", "todos"); each emitter cases it. */
  rawName: string;
  /** Whether the name came from the description (false: the kind's default). */
  named: boolean;
  fields: Field[];
  /** A function's return type, when stated. */
  returns?: TypeNode;
  /** The description's words, lower case (function intents read them). */
  words: string[];
  /**
   * The description for a doc comment: without a function's signature, which the code itself shows
   * ("slugify(text: string): string that makes a URL slug" → "makes a URL slug").
   */
  summary: string;
}

// ----------------------------------------------------------------------------------------------
// Tokens

interface Token {
  type: 'word' | 'num' | 'str' | 'punct';
  value: string;
  /** Where it starts and ends in the description. */
  start: number;
  end: number;
}

const PUNCTS = ['...', '..', '=>', '->', '>=', '<=', '[]'];

/** Words, numbers, quoted strings and punctuation; an apostrophe inside a word ("user's") is not a quote. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i, i + 200));
    if (word) {
      tokens.push({ type: 'word', value: word[0], start: i, end: i + word[0].length });
      i += word[0].length;
      continue;
    }
    const num = /^\d+(?:\.\d+)?/.exec(text.slice(i, i + 50));
    if (num) {
      tokens.push({ type: 'num', value: num[0], start: i, end: i + num[0].length });
      i += num[0].length;
      continue;
    }
    if ((ch === "'" || ch === '"' || ch === '`') && (i === 0 || !/[\w$]/.test(text[i - 1]!))) {
      const end = text.indexOf(ch, i + 1);
      if (end > i && !/[\w$]/.test(text[end + 1] ?? ' ')) {
        tokens.push({ type: 'str', value: text.slice(i + 1, end), start: i, end: end + 1 });
        i = end + 1;
        continue;
      }
    }
    const punct = PUNCTS.find((p) => text.startsWith(p, i)) ?? ch;
    tokens.push({ type: 'punct', value: punct, start: i, end: i + punct.length });
    i += punct.length;
  }
  return tokens;
}

// ----------------------------------------------------------------------------------------------
// Vocabulary

const set = (words: string): ReadonlySet<string> => new Set(words.split(/\s+/).filter(Boolean));

/** Words that open a list of fields or parameters. */
const MARKERS = set(`with taking takes take accepting accepts accept having has have containing contains
  fields field props prop properties property params parameters parameter arguments argument args arg given
  receives receiving including includes`);
/** Words that close a list: what follows is prose, or the return type. */
const ENDERS = set(`that which where so returning returns return to when if then but because using by in on
  into from for whose who while than like as via without plus`);
const ARTICLES = set('a an the some this these those my our your its their optional required');
/** Words never taken as a name or a field. */
const STOPWORDS = set(`a an the some this these those my our your its their it them they we you i me of and or
  is are be been being was were will would should could can may might must do does did done-not not no yes
  all any each every one two new make create build write generate generates show shows display displays
  render renders list lists simple basic small little nice please just also very`);
const KIND_WORDS = set(`component components widget api apis endpoint endpoints route routes router rest crud
  function functions func fn method helper util utility schema schemas model type interface validator
  called named`);

const CALLBACK_WORDS = set('callback callbacks handler handlers listener event');

const lower = (t: Token | undefined): string => (t?.type === 'word' ? t.value.toLowerCase() : '');
const isPunct = (t: Token | undefined, ...values: string[]): boolean =>
  t?.type === 'punct' && values.includes(t.value);
const isNameWord = (t: Token | undefined): boolean => {
  const w = lower(t);
  return (
    w !== '' &&
    !STOPWORDS.has(w) &&
    !MARKERS.has(w) &&
    !ENDERS.has(w) &&
    !KIND_WORDS.has(w) &&
    !CALLBACK_WORDS.has(w)
  );
};

/** Type words (case-insensitive) → type. Anything else after a colon is a named type (`Item`). */
function namedType(word: string): TypeNode | null {
  switch (word.toLowerCase()) {
    case 'string':
    case 'str':
    case 'text':
      return { kind: 'string' };
    case 'number':
    case 'num':
    case 'float':
    case 'double':
    case 'decimal':
    case 'real':
      return { kind: 'number', integer: false };
    case 'int':
    case 'integer':
      return { kind: 'number', integer: true };
    case 'boolean':
    case 'bool':
      return { kind: 'boolean' };
    case 'date':
    case 'datetime':
    case 'timestamp':
      return { kind: 'date' };
    case 'uuid':
    case 'guid':
      return { kind: 'uuid' };
    case 'email':
      return { kind: 'email' };
    case 'url':
    case 'uri':
    case 'link':
    case 'href':
      return { kind: 'url' };
    case 'any':
    case 'unknown':
      return { kind: 'unknown' };
    case 'object':
    case 'json':
    case 'record':
    case 'map':
    case 'dict':
      return { kind: 'record' };
    case 'reactnode':
    case 'node':
    case 'element':
    case 'jsx':
      return { kind: 'node' };
    case 'void':
    case 'undefined':
    case 'nothing':
      return { kind: 'void' };
    case 'callback':
    case 'function':
    case 'handler':
      return { kind: 'callback', params: [], returns: { kind: 'void' } };
    default:
      return null;
  }
}

/** What a field without a stated type most likely is, from its name. */
export function inferType(name: string): TypeNode {
  const last = wordsOf(name).at(-1) ?? '';
  if (/^on[A-Z]/.test(name)) return { kind: 'callback', params: [], returns: { kind: 'void' } };
  if (/^(is|has|can|should|was|show|enable|allow)[A-Z_]/.test(name)) return { kind: 'boolean' };
  if (
    /^(done|completed|complete|active|enabled|disabled|visible|hidden|checked|selected|open|published|archived|verified|admin|available|paid|featured|read)$/i.test(
      name,
    )
  ) {
    return { kind: 'boolean' };
  }
  if (/^(emails)$/.test(last)) return { kind: 'array', of: { kind: 'email' } };
  if (/^(tags|labels|keywords|categories|ids|names|aliases|roles)$/.test(last)) {
    return { kind: 'array', of: { kind: 'string' } };
  }
  if (last === 'email') return { kind: 'email' };
  if (/^(url|uri|href|link|website|homepage|avatar|image|photo|picture|thumbnail|logo|icon)$/.test(last)) {
    return { kind: 'url' };
  }
  if (/^(date|birthday|dob|deadline|due|timestamp)$/.test(last) || /[a-z]At$/.test(name))
    return { kind: 'date' };
  if (
    /^(count|total|amount|price|cost|age|quantity|qty|size|width|height|weight|score|rating|index|year|month|day|hours|minutes|seconds|duration|percent|percentage|rank|level|balance|salary|stock|votes|likes|max|min|limit|offset|page|length)$/.test(
      last,
    )
  ) {
    return { kind: 'number', integer: false };
  }
  return { kind: 'string' };
}

// ----------------------------------------------------------------------------------------------
// The parser

class Reader {
  /** Token indexes that belong to a field, a parameter list or a return type (not name words). */
  readonly used = new Set<number>();
  constructor(readonly tokens: Token[]) {}
  at(i: number): Token | undefined {
    return this.tokens[i];
  }
  mark(from: number, to: number): void {
    for (let i = from; i < to; i++) this.used.add(i);
  }
}

interface Parsed<T> {
  value: T;
  next: number;
}

/** `-5`, `3.5` */
function readNumber(r: Reader, i: number): Parsed<number> | null {
  let sign = 1;
  if (isPunct(r.at(i), '-')) {
    sign = -1;
    i++;
  }
  const t = r.at(i);
  return t?.type === 'num' ? { value: sign * Number(t.value), next: i + 1 } : null;
}

/** `(1..80)`, `(..80)`, `(1..)`, `(3)`: a length or value range. */
function readRange(r: Reader, i: number): Parsed<{ min?: number; max?: number }> | null {
  if (!isPunct(r.at(i), '(')) return null;
  let j = i + 1;
  const range: { min?: number; max?: number } = {};
  const from = readNumber(r, j);
  if (from) {
    range.min = from.value;
    j = from.next;
  }
  if (isPunct(r.at(j), '..', '...') || lower(r.at(j)) === 'to') {
    j++;
    const to = readNumber(r, j);
    if (to) {
      range.max = to.value;
      j = to.next;
    }
  } else if (from) {
    range.max = from.value;
  }
  if (!isPunct(r.at(j), ')') || (range.min === undefined && range.max === undefined)) return null;
  return { value: range, next: j + 1 };
}

/** `>= 0`, `> 0 and <= 100`, `between 1 and 5`, `min 1`, `max 80`: bounds after a type. */
function readBounds(r: Reader, i: number, type: TypeNode): number {
  for (;;) {
    let j = i;
    if (
      lower(r.at(j)) === 'and' &&
      (isPunct(r.at(j + 1), '>', '<', '>=', '<=') || /^(min|max)$/.test(lower(r.at(j + 1))))
    ) {
      j++;
    }
    const op = r.at(j);
    const word = lower(op);
    if (word === 'between') {
      const a = readNumber(r, j + 1);
      const b = a && lower(r.at(a.next)) === 'and' ? readNumber(r, a.next + 1) : null;
      if (!a || !b) return i;
      applyBound(type, '>=', a.value);
      applyBound(type, '<=', b.value);
      i = b.next;
      continue;
    }
    const symbol =
      op?.type === 'punct' && ['>', '<', '>=', '<='].includes(op.value)
        ? op.value
        : word === 'min'
          ? '>='
          : word === 'max'
            ? '<='
            : null;
    if (!symbol) return i;
    // `>` then `=` when typed apart ("> = 0") reads as >=.
    let k = j + 1;
    let full = symbol;
    if ((symbol === '>' || symbol === '<') && isPunct(r.at(k), '=')) {
      full = `${symbol}=`;
      k++;
    }
    const n = readNumber(r, k);
    if (!n) return i;
    applyBound(type, full, n.value);
    i = n.next;
  }
}

function applyBound(type: TypeNode, op: string, n: number): void {
  if (type.kind === 'number') {
    if (op === '>=') type.min = n;
    else if (op === '<=') type.max = n;
    else if (op === '>') type.gt = n;
    else if (op === '<') type.lt = n;
  } else if (type.kind === 'string' || type.kind === 'array') {
    // For text and lists a bound is a length: > 0 means at least 1.
    const whole = Math.max(0, Math.floor(n));
    if (op === '>=') type.min = whole;
    else if (op === '>') type.min = whole + 1;
    else if (op === '<=') type.max = whole;
    else if (op === '<') type.max = Math.max(0, whole - 1);
  }
}

/** One member of a type: a type word, a named type, a literal, `Array<T>`, `list of T`, a function type. */
function readPrimary(r: Reader, i: number, afterColon: boolean): Parsed<TypeNode> | null {
  const t = r.at(i);
  if (!t) return null;
  if (t.type === 'str') return { value: { kind: 'enum', values: [t.value] }, next: i + 1 };
  if (isPunct(t, '(')) {
    // A function type: (a: string, b?: number) => void
    const params = readList(r, i + 1, ')');
    if (!params || !isPunct(r.at(params.next), ')') || !isPunct(r.at(params.next + 1), '=>', '->'))
      return null;
    const returns = readType(r, params.next + 2, true);
    return {
      value: { kind: 'callback', params: params.value, returns: returns?.value ?? { kind: 'void' } },
      next: returns?.next ?? params.next + 2,
    };
  }
  if (t.type !== 'word') return null;
  const word = t.value.toLowerCase();
  // Array<T>, list of T, array of T
  if ((word === 'array' || word === 'list') && isPunct(r.at(i + 1), '<')) {
    const inner = readType(r, i + 2, true);
    if (inner && isPunct(r.at(inner.next), '>')) {
      return { value: { kind: 'array', of: inner.value }, next: inner.next + 1 };
    }
  }
  if ((word === 'array' || word === 'list') && lower(r.at(i + 1)) === 'of') {
    const inner = readType(r, i + 2, true);
    if (inner) return { value: { kind: 'array', of: inner.value }, next: inner.next };
  }
  let next = i + 1;
  // Generic arguments other than Array's are read past and dropped (Record<string, number> → object).
  if (isPunct(r.at(next), '<')) {
    let depth = 0;
    for (let k = next; k < r.tokens.length; k++) {
      if (isPunct(r.at(k), '<')) depth++;
      if (isPunct(r.at(k), '>')) depth--;
      if (depth === 0) {
        next = k + 1;
        break;
      }
    }
  }
  const known = namedType(t.value);
  if (known) return { value: known, next };
  if (STOPWORDS.has(word) || MARKERS.has(word) || ENDERS.has(word)) return null;
  // An unknown lower-case word is a type only where a type must be (after a colon) or as a list.
  const isRef = /^[A-Z]/.test(t.value) || afterColon || isPunct(r.at(next), '[]', '[');
  return isRef ? { value: { kind: 'ref', name: pascalName(t.value, 'Item', 'Type') }, next } : null;
}

/**
 * A type: members joined by `|` (string literals or bare words make an enum; `T | null` makes the
 * field optional), then `[]` for arrays, a `(min..max)` range, and bounds (`>= 0`).
 */
function readType(
  r: Reader,
  i: number,
  afterColon: boolean,
): (Parsed<TypeNode> & { nullable: boolean }) | null {
  const members: TypeNode[] = [];
  const words: string[] = [];
  let nullable = false;
  let j = i;
  for (;;) {
    const t = r.at(j);
    if (t?.type === 'word' && /^(null|undefined)$/.test(t.value) && members.length + words.length > 0) {
      nullable = true;
      j++;
    } else {
      const primary = readPrimary(r, j, afterColon || members.length > 0);
      if (!primary) {
        // A bare word in a union of words is an enum value: status: active | archived
        if (t?.type === 'word' && (isPunct(r.at(j + 1), '|') || isPunct(r.at(j - 1), '|'))) {
          words.push(t.value);
          j++;
        } else break;
      } else {
        // `active | archived`: lower-case words in a union are the values of an enum.
        const inUnion = isPunct(r.at(j + 1), '|') || isPunct(r.at(j - 1), '|');
        if (primary.value.kind === 'ref' && inUnion && t?.type === 'word' && /^[a-z]/.test(t.value)) {
          words.push(t.value);
        } else members.push(primary.value);
        j = primary.next;
      }
    }
    if (!isPunct(r.at(j), '|')) break;
    j++;
  }
  if (members.length === 0 && words.length === 0) return null;
  let type: TypeNode;
  const literals = members.filter((m): m is Extract<TypeNode, { kind: 'enum' }> => m.kind === 'enum');
  if (literals.length + words.length > 0 && literals.length === members.length) {
    const values = [...new Set([...literals.flatMap((m) => m.values), ...words])];
    type = { kind: 'enum', values };
  } else {
    type = members.find((m) => m.kind !== 'enum') ?? members[0]!;
  }
  // T[] (any depth), then ranges and bounds.
  for (;;) {
    if (isPunct(r.at(j), '[]')) {
      type = { kind: 'array', of: type };
      j++;
    } else if (isPunct(r.at(j), '[') && isPunct(r.at(j + 1), ']')) {
      type = { kind: 'array', of: type };
      j += 2;
    } else break;
  }
  const range = readRange(r, j);
  if (range && (type.kind === 'string' || type.kind === 'number' || type.kind === 'array')) {
    if (range.value.min !== undefined) type.min = range.value.min;
    if (range.value.max !== undefined) type.max = range.value.max;
    j = range.next;
  }
  j = readBounds(r, j, type);
  return { value: type, next: j, nullable };
}

const isSeparator = (t: Token | undefined): boolean => isPunct(t, ',', ';', '&') || lower(t) === 'and';
const isListEnd = (t: Token | undefined): boolean =>
  t === undefined ||
  isSeparator(t) ||
  isPunct(t, '.', ')', '!', '=>', '->', ':') ||
  ENDERS.has(lower(t)) ||
  MARKERS.has(lower(t));

/**
 * One field or parameter:
 * `name: type`, `name?: type`, `optional name: type`, `name (type)`, `an onSelect callback`,
 * `callback onSelect`, and, inside a list (`bare`), a lone `name` whose type is guessed from it.
 */
function readItem(r: Reader, start: number, bare: boolean): Parsed<Field> | null {
  let i = start;
  let optional = false;
  while (ARTICLES.has(lower(r.at(i))) && r.at(i + 1)?.type === 'word' && !isPunct(r.at(i + 2), ':', '?')) {
    if (/^optional$/.test(lower(r.at(i)))) optional = true;
    i++;
  }
  // callback onSelect / handler onSave
  if (CALLBACK_WORDS.has(lower(r.at(i))) && /^on[A-Z]/.test(r.at(i + 1)?.value ?? '')) {
    const name = r.at(i + 1)!.value;
    return { value: callbackField(name, optional), next: i + 2 };
  }
  const t = r.at(i);
  // Before a colon almost any word is a field name ("type: string"); alone it must look like one.
  const typed = isPunct(r.at(i + 1), ':') || (isPunct(r.at(i + 1), '?') && isPunct(r.at(i + 2), ':'));
  const word = lower(t);
  if (t?.type !== 'word' || /^(returning|returns|return)$/.test(word)) return null;
  if (!typed && !isNameWord(t)) return null;
  let j = i + 1;
  if (isPunct(r.at(j), '?')) {
    optional = true;
    j++;
  }
  if (isPunct(r.at(j), ':')) {
    const type = readType(r, j + 1, true);
    if (type) {
      let next = type.next;
      if (isPunct(r.at(next), '(') && lower(r.at(next + 1)) === 'optional' && isPunct(r.at(next + 2), ')')) {
        optional = true;
        next += 3;
      }
      return {
        value: { name: fieldName(t.value), type: type.value, optional: optional || type.nullable },
        next,
      };
    }
    // "name: the user's full name" in a list: a field all the same, its type guessed; the prose is skipped.
    if (!bare) return null;
    let next = j + 1;
    while (next < r.tokens.length && !isSeparator(r.at(next)) && !isPunct(r.at(next), '.')) next++;
    return { value: { name: fieldName(t.value), type: inferType(t.value), optional }, next };
  }
  // name (type)
  if (isPunct(r.at(j), '(')) {
    const type = readType(r, j + 1, true);
    if (type && isPunct(r.at(type.next), ')')) {
      return {
        value: { name: fieldName(t.value), type: type.value, optional: optional || type.nullable },
        next: type.next + 1,
      };
    }
  }
  // onSelect callback / select handler
  if (CALLBACK_WORDS.has(lower(r.at(j)))) return { value: callbackField(t.value, optional), next: j + 1 };
  if (bare && isListEnd(r.at(j))) {
    return { value: { name: fieldName(t.value), type: inferType(t.value), optional }, next: j };
  }
  return null;
}

function callbackField(raw: string, optional: boolean): Field {
  const name = /^on[A-Z]/.test(raw) ? raw : `on${raw.charAt(0).toUpperCase()}${raw.slice(1)}`;
  return {
    name: fieldName(name),
    type: { kind: 'callback', params: [], returns: { kind: 'void' } },
    optional,
  };
}

/** Items separated by `,`, `;` and `and` until `close` (a parameter list) or anything else. */
function readList(r: Reader, i: number, close?: string): Parsed<Field[]> | null {
  const fields: Field[] = [];
  let j = i;
  while (j < r.tokens.length && !(close && isPunct(r.at(j), close))) {
    const item = readItem(r, j, true);
    if (!item) {
      if (close) return null;
      break;
    }
    fields.push(item.value);
    j = item.next;
    if (isSeparator(r.at(j))) j++;
    else break;
  }
  return { value: fields, next: j };
}

// ----------------------------------------------------------------------------------------------
// Reading a description

/** `name(params): returns`, only for a function or right after the word "function". */
function readSignature(
  r: Reader,
  kind: CodeKind,
): { name: string; params: Field[]; returns?: TypeNode; start: number; end: number } | null {
  for (let i = 0; i + 1 < r.tokens.length; i++) {
    const t = r.at(i);
    if (t?.type !== 'word' || !isPunct(r.at(i + 1), '(') || !isNameWord(t)) continue;
    if (kind !== 'function' && lower(r.at(i - 1)) !== 'function') continue;
    const params = readList(r, i + 2, ')');
    if (!params || !isPunct(r.at(params.next), ')')) continue;
    let next = params.next + 1;
    let returns: TypeNode | undefined;
    if (isPunct(r.at(next), ':', '=>', '->')) {
      const type = readType(r, next + 1, true);
      if (type) {
        returns = type.value;
        next = type.next;
      }
    }
    r.mark(i, next);
    const start = lower(r.at(i - 1)) === 'function' ? r.at(i - 1)!.start : t.start;
    return {
      name: t.value,
      params: params.value,
      ...(returns ? { returns } : {}),
      start,
      end: r.at(next - 1)!.end,
    };
  }
  return null;
}

/** Fields anywhere: typed ones (`x: T`) wherever they are, bare names only inside a list. */
function readFields(r: Reader): Field[] {
  const fields: Field[] = [];
  let inList = false;
  for (let i = 0; i < r.tokens.length;) {
    if (r.used.has(i)) {
      i++;
      continue;
    }
    const t = r.at(i);
    if (MARKERS.has(lower(t))) {
      inList = true;
      i += isPunct(r.at(i + 1), ':') ? 2 : 1;
      continue;
    }
    const item = readItem(r, i, inList);
    if (item) {
      fields.push(item.value);
      r.mark(i, item.next);
      i = item.next;
      if (isSeparator(r.at(i))) {
        r.mark(i, i + 1);
        i++;
        inList = true;
      } else inList = false;
      continue;
    }
    if (!(inList && isSeparator(t))) inList = false;
    i++;
  }
  return fields;
}

/** "returning number", "returns a string", "-> Item[]". */
function readReturns(r: Reader): TypeNode | undefined {
  for (let i = 0; i < r.tokens.length; i++) {
    if (r.used.has(i)) continue;
    if (
      !/^(returning|returns|return|gives|giving|yields)$/.test(lower(r.at(i))) &&
      !isPunct(r.at(i), '->', '=>')
    ) {
      continue;
    }
    let j = i + 1;
    while (ARTICLES.has(lower(r.at(j)))) j++;
    const type = readType(r, j, false);
    if (type) {
      r.mark(i, type.next);
      return type.value;
    }
  }
  return undefined;
}

/** Up to four name words in a row from `i` going `step` (+1 after, -1 before). */
function nameWordsFrom(r: Reader, i: number, step: 1 | -1): string[] {
  const words: string[] = [];
  for (let j = i; words.length < 4 && j >= 0 && j < r.tokens.length; j += step) {
    const t = r.at(j);
    if (r.used.has(j) || !isNameWord(t)) break;
    words.push(t!.value);
  }
  return step === 1 ? words : words.reverse();
}

const KIND_NOUNS: Record<CodeKind, RegExp> = {
  component: /^(component|widget)$/,
  api: /^(api|apis|endpoints?|routes?|router|crud|rest)$/,
  function: /^(function|func|fn|method|helper|util|utility)$/,
  schema: /^(schema|model|validator|type|interface)$/,
};

function readName(r: Reader, kind: CodeKind): string | null {
  // called X / named X / name it X
  for (let i = 0; i < r.tokens.length; i++) {
    if (
      !/^(called|named)$/.test(lower(r.at(i))) &&
      !(lower(r.at(i)) === 'it' && lower(r.at(i - 1)) === 'name')
    ) {
      continue;
    }
    const t = r.at(i + 1);
    if (t?.type === 'str' && wordsOf(t.value).length > 0) return t.value;
    const words = nameWordsFrom(r, i + 1, 1);
    if (words.length > 0) return words.join(' ');
  }
  // The kind's noun: "a UserCard component", "component UserCard", "an api for todos", "schema Product"
  for (let i = 0; i < r.tokens.length; i++) {
    if (r.used.has(i) || !KIND_NOUNS[kind].test(lower(r.at(i)))) continue;
    const before = nameWordsFrom(r, i - 1, -1);
    if (before.length > 0) return before.join(' ');
    let j = i + 1;
    if (/^(for|of|about|over|on)$/.test(lower(r.at(j)))) j++;
    while (ARTICLES.has(lower(r.at(j)))) j++;
    if (r.at(j)?.type === 'str') return r.at(j)!.value;
    const after = nameWordsFrom(r, j, 1);
    if (after.length > 0) return after.join(' ');
  }
  // Any PascalCase or camelCase word that is not a field: "…shows a WeatherCard…"
  for (let i = 0; i < r.tokens.length; i++) {
    const t = r.at(i);
    if (r.used.has(i) || t?.type !== 'word' || !isNameWord(t)) continue;
    if (/^[A-Za-z][a-z0-9]*[A-Z]/.test(t.value) && !namedType(t.value)) return t.value;
  }
  // The first words of the description (before its first list or clause), else its first words anywhere.
  for (let i = 0; i < r.tokens.length; i++) {
    const words = nameWordsFrom(r, i, 1);
    if (words.length > 0) return words.slice(0, 3).join(' ');
    if (MARKERS.has(lower(r.at(i))) || ENDERS.has(lower(r.at(i)))) break;
  }
  const anywhere = r.tokens.filter((t, i) => !r.used.has(i) && isNameWord(t)).slice(0, 3);
  return anywhere.length > 0 ? anywhere.map((t) => t.value).join(' ') : null;
}

/** What each kind is called when the description names nothing. */
export const DEFAULT_NAMES: Record<CodeKind, string> = {
  component: 'MyComponent',
  api: 'items',
  function: 'compute',
  schema: 'Item',
};

/** Read a description. Never throws: unknown words are skipped. */
export function readDescription(kind: CodeKind, description: string): Spec {
  const r = new Reader(tokenize(description));
  const signature = readSignature(r, kind);
  const fields = dedupe([...(signature?.params ?? []), ...readFields(r)]);
  const returns = kind === 'function' ? (signature?.returns ?? readReturns(r)) : undefined;
  const rawName = signature?.name ?? readName(r, kind);
  return {
    kind,
    description: description.trim(),
    rawName: rawName ?? DEFAULT_NAMES[kind],
    named: rawName !== null,
    fields,
    ...(returns ? { returns } : {}),
    words: wordsOf(description),
    summary: signature ? summaryWithout(description, signature.start, signature.end) : description.trim(),
  };
}

/** The description less a span, and the joining word that led to it ("… that makes a slug"). */
function summaryWithout(description: string, start: number, end: number): string {
  const before = description
    .slice(0, start)
    .replace(/\b(a|an|the)\s*$/i, '')
    .trim();
  const after = description
    .slice(end)
    .replace(/^[\s,.:;-]*(that|which|to|it)?\b\s*/i, '')
    .trim();
  return [before, after].filter(Boolean).join(' ');
}

/** The first field of each name wins. */
function dedupe(fields: Field[]): Field[] {
  const seen = new Set<string>();
  return fields.filter((f) => (seen.has(f.name) ? false : (seen.add(f.name), true)));
}

/** A type as the screen shows it: `string(1..80)`, `number >= 0`, `'a' | 'b'`, `Item[]`, `() => void`. */
export function typeLabel(type: TypeNode): string {
  switch (type.kind) {
    case 'string':
      return `string${rangeLabel(type.min, type.max)}`;
    case 'number': {
      const base = type.integer ? 'integer' : 'number';
      const bounds = [
        type.min !== undefined ? `>= ${type.min}` : null,
        type.gt !== undefined ? `> ${type.gt}` : null,
        type.max !== undefined ? `<= ${type.max}` : null,
        type.lt !== undefined ? `< ${type.lt}` : null,
      ].filter(Boolean);
      return bounds.length > 0 ? `${base} ${bounds.join(' ')}` : base;
    }
    case 'enum':
      return type.values.map((v) => `'${v}'`).join(' | ');
    case 'array': {
      const inner = typeLabel(type.of);
      return `${/[ |]/.test(inner) ? `(${inner})` : inner}[]${rangeLabel(type.min, type.max)}`;
    }
    case 'ref':
      return type.name;
    case 'callback':
      return `(${type.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${typeLabel(p.type)}`).join(', ')}) => ${typeLabel(type.returns)}`;
    case 'date':
      return 'Date';
    case 'record':
      return 'object';
    case 'node':
      return 'ReactNode';
    default:
      return type.kind;
  }
}

const rangeLabel = (min?: number, max?: number): string =>
  min === undefined && max === undefined ? '' : `(${min ?? ''}..${max ?? ''})`;
