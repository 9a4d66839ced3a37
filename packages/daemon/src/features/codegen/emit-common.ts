import type { Field, TypeNode } from './grammar.ts';
import { commentText } from './names.ts';
import { objectType, renderTemplate, type Language } from './ts-template.ts';

/** What an emitter hands back: the identifier it named the code after, its file name and the code. */
export interface Emitted {
  name: string;
  fileName: string;
  code: string;
  /** Whether the emitter knew the task (false: the code is its skeleton). */
  recognised?: boolean;
}

export type { Language } from './ts-template.ts';

export interface TypeStyle {
  /** Dates as `Date` objects, or as ISO-8601 strings (JSON bodies). */
  date: 'Date' | 'string';
  /** React content as `ReactNode` (components) or `unknown`. */
  node: 'ReactNode' | 'unknown';
}

const DEFAULT_STYLE: TypeStyle = { date: 'Date', node: 'unknown' };

/** The TypeScript (and JSDoc) type for a grammar type. */
export function tsType(type: TypeNode, style: TypeStyle = DEFAULT_STYLE): string {
  switch (type.kind) {
    case 'string':
    case 'uuid':
    case 'email':
    case 'url':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
      return style.date;
    case 'unknown':
      return 'unknown';
    case 'record':
      return 'Record<string, unknown>';
    case 'node':
      return style.node;
    case 'void':
      return 'void';
    case 'enum':
      return type.values.map((v) => quoteLiteral(v)).join(' | ');
    case 'ref':
      return type.name;
    case 'array': {
      const inner = tsType(type.of, style);
      return /[ |=]/.test(inner) && !/^Record</.test(inner) ? `(${inner})[]` : `${inner}[]`;
    }
    case 'callback':
      return `(${type.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${tsType(p.type, style)}`).join(', ')}) => ${tsType(type.returns, style)}`;
  }
}

/** A string literal for a type or a value, single-quoted. */
export function quoteLiteral(text: string): string {
  return `'${text
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/[\r\n\u2028\u2029]/g, ' ')}'`;
}

/** Every named type used by these types (inside arrays and callback parameters too), in order. */
export function refsOf(types: TypeNode[]): string[] {
  const names: string[] = [];
  const visit = (t: TypeNode): void => {
    if (t.kind === 'ref' && !names.includes(t.name)) names.push(t.name);
    if (t.kind === 'array') visit(t.of);
    if (t.kind === 'callback') {
      t.params.forEach((p) => visit(p.type));
      visit(t.returns);
    }
  };
  types.forEach(visit);
  return names;
}

/** Replace references to `from` (a type the code itself declares under another name). */
export function renameRef(type: TypeNode, from: string, to: string): TypeNode {
  switch (type.kind) {
    case 'ref':
      return type.name === from ? { kind: 'ref', name: to } : type;
    case 'array':
      return { ...type, of: renameRef(type.of, from, to) };
    case 'callback':
      return {
        ...type,
        params: type.params.map((p) => ({ ...p, type: renameRef(p.type, from, to) })),
        returns: renameRef(type.returns, from, to),
      };
    default:
      return type;
  }
}

/**
 * The description as the first sentence of a doc comment: one line, capitalised, ending with a
 * full stop, never closing the comment, at most 200 characters.
 */
export function docSentence(description: string): string {
  let text = commentText(description);
  if (text.length > 200) text = `${text.slice(0, 197).replace(/\s+\S*$/, '')}…`;
  if (text === '') return '';
  text = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/** A JSDoc block from lines (blank strings make blank comment lines), indented by `indent`. */
export function docBlock(lines: string[], indent = ''): string {
  const body = lines.map((l) => (l === '' ? `${indent} *` : `${indent} * ${l}`));
  return [`${indent}/**`, ...body, `${indent} */`].join('\n');
}

/**
 * Declarations of the named types the description mentions but does not describe: an open object
 * whose known fields (`known`, e.g. the `price` a sum reads) are typed.
 */
export function refDeclarations(
  refs: string[],
  language: Language,
  known: Map<string, Field[]> = new Map(),
): string[] {
  return refs.map((name) => {
    const fields = known.get(name) ?? [];
    const note = `${name}: the description names this type without its fields; add them here.`;
    if (language === 'typescript') {
      // Printed by the compiler: the members are its property signatures, not spliced text.
      const declaration = renderTemplate(
        'export interface $Name {\n  $MEMBERS: never;\n  [key: string]: unknown;\n}\n',
        { $Name: name, $MEMBERS: objectType(fields).members },
        'typescript',
        false,
      );
      return `${docBlock([note])}\n${declaration.trim()}`;
    }
    if (fields.length === 0) return docBlock([note, '', `@typedef {Record<string, unknown>} ${name}`]);
    return docBlock([
      note,
      '',
      `@typedef {object} ${name}`,
      ...fields.map((f) => `@property {${tsType(f.type)}} ${f.optional ? `[${f.name}]` : f.name}`),
    ]);
  });
}

/** The code as a file: parts separated by a blank line, one final newline. */
export const joinParts = (parts: Array<string | null | undefined | false>): string =>
  `${parts.filter((p): p is string => typeof p === 'string' && p !== '').join('\n\n')}\n`;
