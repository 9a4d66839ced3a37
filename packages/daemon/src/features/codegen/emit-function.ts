import { inferType, type Field, type Spec, type TypeNode } from './grammar.ts';
import { camelName, commentText, labelOf, singular, spacedName, wordsOf } from './names.ts';
import {
  docBlock,
  docSentence,
  joinParts,
  quoteLiteral,
  refDeclarations,
  refsOf,
  tsType,
} from './emit-common.ts';
import type { Emitted, Language } from './emit-common.ts';

/**
 * A typed function with a JSDoc from the description. Its body is real where the name or the
 * description names a task the generator knows (slugify, validate an email or URL, capitalize,
 * title case, truncate, reverse, unique, sum/total, average, max/min, count, filter, sort by,
 * format a price, clamp). Otherwise the body returns a value built from the parameters in the
 * plainest way its return type allows, under a TODO naming what the description asked: it never
 * throws "not implemented".
 */

/** How a function's body was planned. */
interface Plan {
  params: Field[];
  /** The return type as TypeScript (and JSDoc) text. */
  returns: string;
  /** Body lines, without the function's indentation. */
  body: string[];
  /** Parameters the body reads; the others are marked unused (`_name`) and named in a TODO. */
  used: Set<string>;
  /** Fields a named type must have for the body (`price` for sumPrices over Item[]). */
  refFields?: Map<string, Field[]>;
  /** Set when the generator did not know the task: what the body does instead. */
  fallback?: string;
  returnsDoc: string;
}

type Ctx = {
  params: Field[];
  stated: TypeNode | undefined;
  /** Words of the function's name. */
  nameWords: string[];
  /** Words of the whole description (name included). */
  words: string[];
};

const STRINGY = new Set(['string', 'uuid', 'email', 'url']);
const isStringy = (f: Field): boolean => STRINGY.has(f.type.kind);
const isNumber = (f: Field): boolean => f.type.kind === 'number';
const isArray = (f: Field): f is Field & { type: Extract<TypeNode, { kind: 'array' }> } =>
  f.type.kind === 'array';
const required = (f: Field): boolean => !f.optional;
const has = (words: string[], pattern: RegExp): boolean => words.some((w) => pattern.test(w));

/** The stated return type allows `want` (nothing stated allows anything). */
const allows = (stated: TypeNode | undefined, want: string): boolean =>
  stated === undefined || tsType(stated) === want;

const STRING: TypeNode = { kind: 'string' };
/** Words that say the values come as a list. */
const COLLECTION_WORDS = /^(list|lists|array|arrays|numbers|values|items|all|every|each)$/;
const NUMBER: TypeNode = { kind: 'number', integer: false };

/** Parameters to use: the description's, or `defaults` when it named none. */
function paramsOr(ctx: Ctx, defaults: Field[]): Field[] {
  return ctx.params.length > 0 ? ctx.params : defaults;
}

/** The words of the name after the verb (and after "by"): sumPrices → price, sortByName → name. */
function subject(words: string[], verb: RegExp): string | null {
  const at = words.findIndex((w) => verb.test(w));
  if (at < 0) return null;
  let rest = words.slice(at + 1);
  const by = rest.indexOf('by');
  if (by >= 0) rest = rest.slice(by + 1);
  rest = rest.filter(
    (w) => !/^(the|a|an|of|all|items?|list|values?|array|in|ascending|descending|asc|desc)$/.test(w),
  );
  if (rest.length === 0) return null;
  const last = singular(rest.at(-1)!);
  return camelName([...rest.slice(0, -1), last].join(' '), 'value');
}

/** For an array of a named type: the property the body reads, added to that type's declaration. */
function withProp(
  plan: Plan,
  array: Field & { type: Extract<TypeNode, { kind: 'array' }> },
  prop: Field,
): Plan {
  if (array.type.of.kind === 'ref') {
    const refFields = plan.refFields ?? new Map<string, Field[]>();
    refFields.set(array.type.of.name, [...(refFields.get(array.type.of.name) ?? []), prop]);
    plan.refFields = refFields;
  }
  return plan;
}

/** A numeric property of the elements of an array of a named type: sumPrices over items: Item[]. */
function numericItems(ctx: Ctx, verb: RegExp) {
  const numbers = ctx.params.find((f) => isArray(f) && f.type.of.kind === 'number' && required(f));
  if (numbers)
    return {
      array: numbers as Field & { type: Extract<TypeNode, { kind: 'array' }> },
      read: (v: string) => v,
      prop: null,
    };
  const objects = ctx.params.find((f) => isArray(f) && f.type.of.kind === 'ref' && required(f));
  const prop = subject(ctx.nameWords, verb) ?? subject(ctx.words, verb);
  if (objects && prop && isArray(objects))
    return { array: objects, read: (v: string) => `${v}.${prop}`, prop };
  return null;
}

type Intent = (ctx: Ctx) => Plan | null;

const SLUG = String.raw`  const slug = TEXT
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');`;

const INTENTS: Array<{ when: (ctx: Ctx) => boolean; plan: Intent }> = [
  {
    when: (c) => has(c.nameWords, /^slug/) || has(c.words, /^slugif/),
    plan: (c) => {
      if (!allows(c.stated, 'string')) return null;
      const params = paramsOr(c, [{ name: 'text', type: STRING, optional: false }]);
      const text = params.find((f) => isStringy(f) && required(f));
      if (!text) return null;
      const max = params.find((f) => isNumber(f) && /max|limit|length/i.test(f.name));
      const body = SLUG.replace('TEXT', text.name)
        .split('\n')
        .map((l) => l.replace(/^ {2}/, ''));
      if (!max) body.push('return slug;');
      else if (max.optional)
        body.push(`return ${max.name} === undefined ? slug : slug.slice(0, ${max.name}).replace(/-+$/, '');`);
      else body.push(`return slug.slice(0, ${max.name}).replace(/-+$/, '');`);
      return {
        params,
        returns: 'string',
        body,
        used: new Set([text.name, ...(max ? [max.name] : [])]),
        returnsDoc: 'The URL slug: lower case, words joined by hyphens.',
      };
    },
  },
  {
    when: (c) =>
      has(c.words, /^e?mails?$/) &&
      has(c.words, /^(valid|validate|validates|validation|check|checks|verify|is|isvalid)$/),
    plan: (c) => {
      if (!allows(c.stated, 'boolean')) return null;
      const params = paramsOr(c, [{ name: 'email', type: STRING, optional: false }]);
      const text = params.find((f) => isStringy(f) && required(f));
      if (!text) return null;
      return {
        params,
        returns: 'boolean',
        body: [String.raw`return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(${text.name}.trim());`],
        used: new Set([text.name]),
        returnsDoc: 'Whether it is a well-formed email address.',
      };
    },
  },
  {
    when: (c) =>
      has(c.words, /^(url|urls|link|links|uri)$/) &&
      has(c.words, /^(valid|validate|validates|validation|check|checks|verify|is|isvalid)$/),
    plan: (c) => {
      if (!allows(c.stated, 'boolean')) return null;
      const params = paramsOr(c, [{ name: 'url', type: STRING, optional: false }]);
      const text = params.find((f) => isStringy(f) && required(f));
      if (!text) return null;
      return {
        params,
        returns: 'boolean',
        body: [
          'try {',
          `  const parsed = new URL(${text.name});`,
          "  return parsed.protocol === 'http:' || parsed.protocol === 'https:';",
          '} catch {',
          '  return false;',
          '}',
        ],
        used: new Set([text.name]),
        returnsDoc: 'Whether it is an absolute http(s) URL.',
      };
    },
  },
  {
    when: (c) =>
      has(c.nameWords, /^capitali[sz]e/) ||
      (has(c.words, /^capitali[sz]e/) && !has(c.words, /^(title|every|each|all)$/)),
    plan: (c) => {
      if (!allows(c.stated, 'string')) return null;
      const params = paramsOr(c, [{ name: 'text', type: STRING, optional: false }]);
      const text = params.find((f) => isStringy(f) && required(f));
      if (!text) return null;
      return {
        params,
        returns: 'string',
        body: [`return ${text.name}.charAt(0).toUpperCase() + ${text.name}.slice(1);`],
        used: new Set([text.name]),
        returnsDoc: 'The text with its first letter in upper case.',
      };
    },
  },
  {
    when: (c) =>
      (has(c.words, /^title$/) && has(c.words, /^case$/)) || has(c.words, /^(titlecase|capitali[sz]e)$/),
    plan: (c) => {
      if (!allows(c.stated, 'string')) return null;
      const params = paramsOr(c, [{ name: 'text', type: STRING, optional: false }]);
      const text = params.find((f) => isStringy(f) && required(f));
      if (!text) return null;
      return {
        params,
        returns: 'string',
        body: [
          String.raw`return ${text.name}.toLowerCase().replace(/\b\w/g, (letter) => letter.toUpperCase());`,
        ],
        used: new Set([text.name]),
        returnsDoc: 'The text with every word capitalised.',
      };
    },
  },
  {
    when: (c) => has(c.words, /^(truncate|truncates|shorten|shortens|ellipsis)$/),
    plan: (c) => {
      if (!allows(c.stated, 'string')) return null;
      const params = paramsOr(c, [
        { name: 'text', type: STRING, optional: false },
        { name: 'maxLength', type: NUMBER, optional: false },
      ]);
      const text = params.find((f) => isStringy(f) && required(f));
      const max = params.find((f) => isNumber(f) && required(f));
      if (!text || !max) return null;
      return {
        params,
        returns: 'string',
        body: [
          `if (${text.name}.length <= ${max.name}) return ${text.name};`,
          `return ${text.name}.slice(0, Math.max(0, ${max.name} - 1)).trimEnd() + '…';`,
        ],
        used: new Set([text.name, max.name]),
        returnsDoc: `The text, cut to at most ${max.name} characters with an ellipsis.`,
      };
    },
  },
  {
    when: (c) => has(c.nameWords, /^reverse/) || has(c.words, /^(reverse|reverses|reversed)$/),
    plan: (c) => {
      const params = paramsOr(c, [{ name: 'text', type: STRING, optional: false }]);
      const target = params.find((f) => (isStringy(f) || isArray(f)) && required(f));
      if (!target) return null;
      const returns = tsType(target.type);
      if (!allows(c.stated, returns)) return null;
      const body = isArray(target)
        ? [`return [...${target.name}].reverse();`]
        : [`return [...${target.name}].reverse().join('');`];
      return {
        params,
        returns,
        body,
        used: new Set([target.name]),
        returnsDoc: 'The same items in reverse order.',
      };
    },
  },
  {
    when: (c) => has(c.words, /^(unique|uniq|dedupe|deduplicate|distinct|duplicates)$/),
    plan: (c) => {
      const array = c.params.find((f) => isArray(f) && required(f));
      if (!array) return null;
      const returns = tsType(array.type);
      if (!allows(c.stated, returns)) return null;
      return {
        params: c.params,
        returns,
        body: [`return [...new Set(${array.name})];`],
        used: new Set([array.name]),
        returnsDoc: 'The items without repeats, in their first order.',
      };
    },
  },
  {
    when: (c) => has(c.words, /^(sum|sums|total|totals|add|adds)$/),
    plan: (c) => {
      if (!allows(c.stated, 'number')) return null;
      const items = numericItems(c, /^(sum|sums|total|totals|add|adds)$/);
      if (items) {
        const plan: Plan = {
          params: c.params,
          returns: 'number',
          body: [`return ${items.array.name}.reduce((sum, item) => sum + ${items.read('item')}, 0);`],
          used: new Set([items.array.name]),
          returnsDoc: items.prop
            ? `The sum of every item's ${items.prop}.`
            : 'The sum of the values (0 for none).',
        };
        return items.prop
          ? withProp(plan, items.array, { name: items.prop, type: NUMBER, optional: false })
          : plan;
      }
      // "the sum of numbers in an array" names a list, not two numbers.
      if (c.params.length === 0 && has(c.words, COLLECTION_WORDS)) {
        return {
          params: [{ name: 'values', type: { kind: 'array', of: NUMBER }, optional: false }],
          returns: 'number',
          body: ['return values.reduce((sum, value) => sum + value, 0);'],
          used: new Set(['values']),
          returnsDoc: 'The sum of the values (0 for none).',
        };
      }
      const params = paramsOr(c, [
        { name: 'a', type: NUMBER, optional: false },
        { name: 'b', type: NUMBER, optional: false },
      ]);
      const numbers = params.filter(isNumber);
      if (numbers.length < 2) return null;
      return {
        params,
        returns: 'number',
        body: [`return ${numbers.map((f) => (f.optional ? `(${f.name} ?? 0)` : f.name)).join(' + ')};`],
        used: new Set(numbers.map((f) => f.name)),
        returnsDoc: 'Their sum.',
      };
    },
  },
  {
    when: (c) => has(c.words, /^(average|averages|mean|avg)$/),
    plan: (c) => {
      if (!allows(c.stated, 'number')) return null;
      const items = numericItems(c, /^(average|averages|mean|avg)$/);
      if (!items) return null;
      const a = items.array.name;
      const plan: Plan = {
        params: c.params,
        returns: 'number',
        body: [
          `if (${a}.length === 0) return 0;`,
          `return ${a}.reduce((sum, item) => sum + ${items.read('item')}, 0) / ${a}.length;`,
        ],
        used: new Set([a]),
        returnsDoc: 'The average (0 for no items).',
      };
      return items.prop
        ? withProp(plan, items.array, { name: items.prop, type: NUMBER, optional: false })
        : plan;
    },
  },
  {
    when: (c) => has(c.words, /^(max|maximum|largest|biggest|highest|min|minimum|smallest|lowest)$/),
    plan: (c) => {
      if (!allows(c.stated, 'number')) return null;
      const fn = has(c.words, /^(max|maximum|largest|biggest|highest)$/) ? 'max' : 'min';
      const verb = /^(max|maximum|largest|biggest|highest|min|minimum|smallest|lowest)$/;
      const items = numericItems(c, verb);
      if (items) {
        const values = items.prop
          ? `${items.array.name}.map((item) => ${items.read('item')})`
          : items.array.name;
        const plan: Plan = {
          params: c.params,
          returns: 'number',
          body: [`return Math.${fn}(...${values});`],
          used: new Set([items.array.name]),
          returnsDoc: `The ${fn === 'max' ? 'largest' : 'smallest'} value (${fn === 'max' ? '-Infinity' : 'Infinity'} for none).`,
        };
        return items.prop
          ? withProp(plan, items.array, { name: items.prop, type: NUMBER, optional: false })
          : plan;
      }
      if (c.params.length === 0 && has(c.words, COLLECTION_WORDS)) {
        return {
          params: [{ name: 'values', type: { kind: 'array', of: NUMBER }, optional: false }],
          returns: 'number',
          body: [`return Math.${fn}(...values);`],
          used: new Set(['values']),
          returnsDoc: `The ${fn === 'max' ? 'largest' : 'smallest'} value (${fn === 'max' ? '-Infinity' : 'Infinity'} for none).`,
        };
      }
      const numbers = c.params.filter((f) => isNumber(f) && required(f));
      if (numbers.length < 2) return null;
      return {
        params: c.params,
        returns: 'number',
        body: [`return Math.${fn}(${numbers.map((f) => f.name).join(', ')});`],
        used: new Set(numbers.map((f) => f.name)),
        returnsDoc: `The ${fn === 'max' ? 'largest' : 'smallest'} of them.`,
      };
    },
  },
  {
    when: (c) => has(c.words, /^(count|counts|counting)$/),
    plan: (c) => {
      if (!allows(c.stated, 'number')) return null;
      const array = c.params.find((f) => isArray(f) && required(f));
      if (array) {
        return {
          params: c.params,
          returns: 'number',
          body: [`return ${array.name}.length;`],
          used: new Set([array.name]),
          returnsDoc: 'How many items there are.',
        };
      }
      const params = paramsOr(c, [{ name: 'text', type: STRING, optional: false }]);
      const text = params.find((f) => isStringy(f) && required(f));
      if (!text) return null;
      const words = has(c.words, /^words?$/);
      return {
        params,
        returns: 'number',
        body: [
          words
            ? String.raw`return ${text.name}.split(/\s+/).filter(Boolean).length;`
            : `return [...${text.name}].length;`,
        ],
        used: new Set([text.name]),
        returnsDoc: words ? 'How many words the text has.' : 'How many characters the text has.',
      };
    },
  },
  {
    when: (c) => has(c.words, /^(filter|filters|filtered)$/),
    plan: (c) => {
      const array = c.params.find((f) => isArray(f) && required(f));
      if (!array || !isArray(array)) return null;
      const returns = tsType(array.type);
      if (!allows(c.stated, returns)) return null;
      const other = c.params.find(
        (f) => f !== array && required(f) && f.type.kind !== 'array' && f.type.kind !== 'callback',
      );
      const base = { params: c.params, returns, returnsDoc: 'The items that match, in their order.' };
      if (array.type.of.kind === 'ref') {
        if (other) {
          const plan: Plan = {
            ...base,
            body: [`return ${array.name}.filter((item) => item.${other.name} === ${other.name});`],
            used: new Set([array.name, other.name]),
          };
          return withProp(plan, array, { name: other.name, type: other.type, optional: false });
        }
        const prop = subject(c.nameWords, /^(filter|filters|filtered)$/);
        if (!prop) return null;
        const plan: Plan = {
          ...base,
          body: [`return ${array.name}.filter((item) => item.${prop});`],
          used: new Set([array.name]),
        };
        return withProp(plan, array, { name: prop, type: { kind: 'boolean' }, optional: false });
      }
      if (array.type.of.kind === 'string' && other && isStringy(other)) {
        return {
          ...base,
          body: [
            `const wanted = ${other.name}.toLowerCase();`,
            `return ${array.name}.filter((item) => item.toLowerCase().includes(wanted));`,
          ],
          used: new Set([array.name, other.name]),
        };
      }
      if (array.type.of.kind === 'number' && other && isNumber(other)) {
        return {
          ...base,
          body: [`return ${array.name}.filter((item) => item >= ${other.name});`],
          used: new Set([array.name, other.name]),
          returnsDoc: `The values of at least ${other.name}.`,
        };
      }
      return null;
    },
  },
  {
    when: (c) => has(c.words, /^(sort|sorts|sorted|sorting|order|orders)$/),
    plan: (c) => {
      const array = c.params.find((f) => isArray(f) && required(f));
      if (!array || !isArray(array)) return null;
      const returns = tsType(array.type);
      if (!allows(c.stated, returns)) return null;
      const desc = has(c.words, /^(desc|descending|newest|latest|largest|highest|reverse|reversed)$/);
      const [x, y] = desc ? ['b', 'a'] : ['a', 'b'];
      const compare = (t: TypeNode, get: (v: string) => string): string | null => {
        if (STRINGY.has(t.kind) || t.kind === 'enum') return `${get(x)}.localeCompare(${get(y)})`;
        if (t.kind === 'number') return `${get(x)} - ${get(y)}`;
        if (t.kind === 'date') return `${get(x)}.getTime() - ${get(y)}.getTime()`;
        if (t.kind === 'boolean') return `Number(${get(x)}) - Number(${get(y)})`;
        return null;
      };
      const base = {
        params: c.params,
        returns,
        used: new Set([array.name]),
        returnsDoc: `A sorted copy (${desc ? 'descending' : 'ascending'}); the input is left as it was.`,
      };
      if (array.type.of.kind === 'ref') {
        const key =
          subject(c.nameWords, /^(sort|sorts|sorted|order|orders)$/) ??
          subject(c.words, /^(sort|sorts|sorted|sorting|order|orders)$/);
        if (!key) return null;
        const keyType = inferType(key);
        const cmp = compare(keyType, (v) => `${v}.${key}`);
        if (!cmp) return null;
        return withProp({ ...base, body: [`return [...${array.name}].sort((a, b) => ${cmp});`] }, array, {
          name: key,
          type: keyType,
          optional: false,
        });
      }
      const cmp = compare(array.type.of, (v) => v);
      if (!cmp) return null;
      return { ...base, body: [`return [...${array.name}].sort((a, b) => ${cmp});`] };
    },
  },
  {
    when: (c) =>
      has(c.words, /^(format|formats|formatted)$/) &&
      has(c.words, /^(price|prices|currency|money|amount|cost)$/),
    plan: (c) => {
      if (!allows(c.stated, 'string')) return null;
      const params = paramsOr(c, [{ name: 'amount', type: NUMBER, optional: false }]);
      const amount = params.find((f) => isNumber(f) && required(f));
      if (!amount) return null;
      const currency = params.find((f) => isStringy(f) && /currency/i.test(f.name));
      const code = currency ? (currency.optional ? `${currency.name} ?? 'USD'` : currency.name) : "'USD'";
      return {
        params,
        returns: 'string',
        body: [
          `return new Intl.NumberFormat('en-US', { style: 'currency', currency: ${code} }).format(${amount.name});`,
        ],
        used: new Set([amount.name, ...(currency ? [currency.name] : [])]),
        returnsDoc: 'The amount as money, e.g. "$1,234.50".',
      };
    },
  },
  {
    when: (c) => has(c.words, /^(clamp|clamps|clamped)$/),
    plan: (c) => {
      if (!allows(c.stated, 'number')) return null;
      const params = paramsOr(c, [
        { name: 'value', type: NUMBER, optional: false },
        { name: 'min', type: NUMBER, optional: false },
        { name: 'max', type: NUMBER, optional: false },
      ]);
      const numbers = params.filter((f) => isNumber(f) && required(f));
      if (numbers.length < 3) return null;
      const lo = numbers.find((f) => /min|low|lower|from/i.test(f.name)) ?? numbers[1]!;
      const hi =
        numbers.find((f) => /max|high|upper|to/i.test(f.name) && f !== lo) ??
        numbers.find((f) => f !== lo && f !== numbers[0])!;
      const value = numbers.find((f) => f !== lo && f !== hi)!;
      return {
        params,
        returns: 'number',
        body: [`return Math.min(Math.max(${value.name}, ${lo.name}), ${hi.name});`],
        used: new Set([value.name, lo.name, hi.name]),
        returnsDoc: `${value.name}, kept between ${lo.name} and ${hi.name}.`,
      };
    },
  },
];

// ----------------------------------------------------------------------------------------------
// The fallback: a value built from the parameters

/** What the function's name says it returns when the description does not. */
function impliedReturn(nameWords: string[]): TypeNode | null {
  const first = nameWords[0] ?? '';
  if (/^(is|has|can|should|check|checks|validate|contains|matches|equals|needs|allows)$/.test(first))
    return { kind: 'boolean' };
  if (/^(format|to|stringify|describe|render|print|greet|greeting|say|join|label|build)$/.test(first))
    return STRING;
  if (/^(count|calc|calculate|compute|total|sum|measure|score)$/.test(first)) return NUMBER;
  return null;
}

/** `name` as text inside a template literal. */
function asText(f: Field): string {
  const v = f.name;
  switch (f.type.kind) {
    case 'date':
      return f.optional ? `\${${v}?.toISOString() ?? ''}` : `\${${v}.toISOString()}`;
    case 'array':
      if (!STRINGY.has(f.type.of.kind) && f.type.of.kind !== 'number' && f.type.of.kind !== 'boolean') {
        return `\${JSON.stringify(${v})}`;
      }
      return f.optional ? `\${${v}?.join(', ') ?? ''}` : `\${${v}.join(', ')}`;
    case 'record':
    case 'ref':
    case 'unknown':
    case 'node':
      return `\${JSON.stringify(${v})}`;
    default:
      return f.optional ? `\${${v} ?? ''}` : `\${${v}}`;
  }
}

/** A value of `type` made from `params`, and what that is in words. */
function valueFrom(type: TypeNode, params: Field[]): { expr: string; used: string[]; what: string } {
  const data = params.filter((f) => f.type.kind !== 'callback');
  const want = tsType(type);
  // A list is built from every list parameter of its type (merge(a, b) → [...a, ...b]), not just one.
  const same = type.kind === 'array' ? undefined : data.find((f) => required(f) && tsType(f.type) === want);
  if (same) return { expr: same.name, used: [same.name], what: `returns ${same.name} as it is` };
  switch (type.kind) {
    case 'string':
    case 'uuid':
    case 'email':
    case 'url': {
      if (data.length === 0) return { expr: "''", used: [], what: 'returns an empty string' };
      return {
        expr: `\`${data.map(asText).join(' ')}\``,
        used: data.map((f) => f.name),
        what: 'joins the parameters into one string',
      };
    }
    case 'number': {
      const numbers = data.filter(isNumber);
      if (numbers.length > 0) {
        return {
          expr: numbers.map((f) => (f.optional ? `(${f.name} ?? 0)` : f.name)).join(' + '),
          used: numbers.map((f) => f.name),
          what: 'adds up the numeric parameters',
        };
      }
      const sized = data.find((f) => isStringy(f) || isArray(f));
      if (sized)
        return {
          expr: sized.optional ? `${sized.name}?.length ?? 0` : `${sized.name}.length`,
          used: [sized.name],
          what: `returns the length of ${sized.name}`,
        };
      return { expr: '0', used: [], what: 'returns 0' };
    }
    case 'boolean': {
      const tests = data.map((f) => {
        if (f.optional) return `${f.name} !== undefined`;
        if (isStringy(f)) return `${f.name}.trim().length > 0`;
        if (isArray(f)) return `${f.name}.length > 0`;
        if (isNumber(f)) return `Number.isFinite(${f.name})`;
        if (f.type.kind === 'boolean') return f.name;
        if (f.type.kind === 'date') return `!Number.isNaN(${f.name}.getTime())`;
        if (f.type.kind === 'record' || f.type.kind === 'ref') return `Object.keys(${f.name}).length > 0`;
        return `${f.name} !== undefined && ${f.name} !== null`;
      });
      if (tests.length === 0) return { expr: 'false', used: [], what: 'returns false' };
      return {
        expr: tests.join(' && '),
        used: data.map((f) => f.name),
        what: 'checks that every parameter has a value',
      };
    }
    case 'array': {
      const elem = tsType(type.of);
      const arrays = data.filter((f) => tsType(f.type) === want);
      if (arrays.length > 0) {
        return {
          expr: `[${arrays.map((f) => (f.optional ? `...(${f.name} ?? [])` : `...${f.name}`)).join(', ')}]`,
          used: arrays.map((f) => f.name),
          what: 'returns the items of the list parameters',
        };
      }
      const items = data.filter((f) => required(f) && tsType(f.type) === elem);
      if (items.length > 0)
        return {
          expr: `[${items.map((f) => f.name).join(', ')}]`,
          used: items.map((f) => f.name),
          what: 'returns the parameters as a list',
        };
      return { expr: '[]', used: [], what: 'returns an empty list' };
    }
    case 'date': {
      const source = data.find((f) => required(f) && (isStringy(f) || isNumber(f)));
      if (source)
        return {
          expr: `new Date(${source.name})`,
          used: [source.name],
          what: `returns ${source.name} as a date`,
        };
      return { expr: 'new Date()', used: [], what: 'returns the current date' };
    }
    case 'enum':
      return {
        expr: quoteLiteral(type.values[0] ?? ''),
        used: [],
        what: `returns ${quoteLiteral(type.values[0] ?? '')}`,
      };
    case 'callback':
      return {
        expr: type.returns.kind === 'void' ? '() => {}' : `() => ${valueFrom(type.returns, []).expr}`,
        used: [],
        what: 'returns a function that does nothing yet',
      };
    case 'void':
      return { expr: '', used: [], what: 'does nothing yet' };
    case 'node':
      return { expr: 'null', used: [], what: 'returns null' };
    default: {
      // An object (named type, record, unknown): the parameters themselves.
      if (data.length === 0) return { expr: '{}', used: [], what: 'returns an empty object' };
      return {
        expr: `{ ${data.map((f) => f.name).join(', ')} }`,
        used: data.map((f) => f.name),
        what: 'returns the parameters as one object',
      };
    }
  }
}

function fallbackPlan(ctx: Ctx): Plan {
  const params = ctx.params;
  const data = params.filter((f) => f.type.kind !== 'callback');
  let type = ctx.stated ?? impliedReturn(ctx.nameWords);
  let returns: string;
  if (type) returns = tsType(type);
  else if (data.length === 1 && required(data[0]!)) {
    type = data[0]!.type;
    returns = tsType(type);
  } else if (data.length > 0) {
    // Several parameters: an object of them, its type spelled out.
    returns = `{ ${data.map((f) => `${f.name}${f.optional ? '?' : ''}: ${tsType(f.type)}`).join('; ')} }`;
    return {
      params,
      returns,
      body: [`return { ${data.map((f) => f.name).join(', ')} };`],
      used: new Set(data.map((f) => f.name)),
      fallback: 'returns the parameters as one object',
      returnsDoc: 'The parameters, as one object.',
    };
  } else {
    type = { kind: 'void' };
    returns = 'void';
  }
  const value = valueFrom(type, params);
  return {
    params,
    returns,
    body: value.expr === '' ? [] : [`return ${value.expr};`],
    used: new Set(value.used),
    fallback: value.what,
    returnsDoc: type.kind === 'void' ? '' : `The result (${tsType(type)}).`,
  };
}

/** Split a comment into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

export function emitFunction(spec: Spec, language: Language, options: { skeleton?: boolean } = {}): Emitted {
  const ts = language === 'typescript';
  const nameWords = wordsOf(spec.rawName);
  while (nameWords.length > 1 && /^(function|fn|func|helper)$/.test(nameWords.at(-1)!)) nameWords.pop();
  const name = camelName(nameWords.join(' '), 'compute');
  const ctx: Ctx = {
    params: spec.fields,
    stated: spec.returns,
    nameWords: wordsOf(name),
    words: [...wordsOf(name), ...spec.words],
  };

  let plan: Plan | null = null;
  for (const intent of INTENTS) {
    if (!intent.when(ctx)) continue;
    plan = intent.plan(ctx);
    if (plan) break;
  }
  const found = plan ?? fallbackPlan(ctx);

  // A task the generator does not know gets a skeleton: typed, and a body that says so when called
  // instead of a value computed some other way than the description asks.
  const skeleton = found.fallback !== undefined || options.skeleton === true;
  const planned: Plan = skeleton ? { ...found, used: new Set(), body: [] } : found;
  // Parameters the body does not read keep their place, marked unused for the compiler and a reader.
  const unused = planned.params.filter((p) => !planned.used.has(p.name));
  const params = planned.params.map((p) => (planned.used.has(p.name) ? p : { ...p, name: `_${p.name}` }));
  const todo: string[] = [];
  const asked = commentText(spec.description) || `${spacedName(name)}`;
  if (skeleton) {
    todo.push(...wrap(`Skeleton: write the body of ${name} ("${asked}").`, 96));
    planned.body.push(
      `throw new Error(${quoteLiteral(`${name} is a skeleton: its body is not written yet.`)});`,
    );
  } else if (unused.length > 0) {
    todo.push(...wrap(`TODO: use ${unused.map((p) => p.name).join(', ')} (not read by this body yet).`, 96));
  }
  const body = [...todo.map((l) => `// ${l}`), ...planned.body];

  const signatureParams = params.map((p, i) => {
    if (!ts) return p.name;
    const laterRequired = params.slice(i + 1).some(required);
    const type = tsType(p.type);
    if (!p.optional) return `${p.name}: ${type}`;
    return laterRequired ? `${p.name}: ${type} | undefined` : `${p.name}?: ${type}`;
  });

  const doc: string[] = [docSentence(spec.summary) || `${labelOf(name)}.`];
  if (params.length > 0 || planned.returns !== 'void') doc.push('');
  for (const p of params) {
    const label = `The ${spacedName(p.name.replace(/^_/, '')) || 'value'}.`;
    if (ts) doc.push(`@param ${p.name} - ${label}`);
    else doc.push(`@param {${tsType(p.type)}} ${p.optional ? `[${p.name}]` : p.name} - ${label}`);
  }
  if (planned.returns !== 'void')
    doc.push(ts ? `@returns ${planned.returnsDoc}` : `@returns {${planned.returns}} ${planned.returnsDoc}`);

  const refs = refsOf([...params.map((p) => p.type), ...(spec.returns ? [spec.returns] : [])]);
  const fn = [
    docBlock(doc),
    `export function ${name}(${signatureParams.join(', ')})${ts ? `: ${planned.returns}` : ''} {`,
    ...body.map((l) => (l === '' ? '' : `  ${l}`)),
    '}',
  ].join('\n');
  return {
    name,
    fileName: `${name}.${ts ? 'ts' : 'js'}`,
    code: joinParts([...refDeclarations(refs, language, planned.refFields), fn]),
    recognised: !skeleton,
  };
}
