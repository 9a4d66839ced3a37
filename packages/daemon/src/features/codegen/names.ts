/**
 * Names for generated code: the words of whatever the user typed ("user card", "user-card",
 * "UserCard", "user_card") turned into identifiers that are always valid, never a keyword and never
 * a global the generated code itself relies on.
 */

/** Words that can never be a binding name in an ES module (strict mode) or TypeScript. */
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if import in instanceof new null return super switch this throw true try ' +
    'typeof var void while with yield let static implements interface package private protected public ' +
    'await arguments eval undefined NaN Infinity'
  ).split(' '),
);

/**
 * Global names generated code uses (Record in type guards, Date for dates, Map for the API's store…)
 * or that a reader would confuse with the built-in: a component, schema or type is never given one.
 */
const GLOBAL_TYPES = new Set(
  (
    'Array Boolean Date Error Function JSON Map Math Number Object Promise Proxy Record Partial Readonly ' +
    'Required Pick Omit Exclude Extract ReturnType RegExp Set String Symbol URL WeakMap WeakSet BigInt ' +
    'Intl Reflect Request Response Router Event Element Node Document Window Image Text Comment File ' +
    'Blob Headers Option Audio Fragment React Props Checked'
  ).split(' '),
);

export const isReserved = (name: string): boolean => RESERVED.has(name);

/** The words of a name in any style: "user card", "user-card", "user_card", "UserCard", "userCard". */
export function wordsOf(raw: string): string[] {
  return raw
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/**
 * Words that start with a digit cannot open an identifier: they move to the end ("3d view" →
 * View3d). A name of digits only gets `fallback` in front ("2024" → Item2024).
 */
function orderWords(words: string[], fallback: string): string[] {
  const lead = words.filter((w) => !/^[0-9]/.test(w));
  const digits = words.filter((w) => /^[0-9]/.test(w));
  return lead.length > 0 ? [...lead, ...digits] : [...wordsOf(fallback), ...digits];
}

/** UserCard: for components, schemas, types. Never empty, never a global type name. */
export function pascalName(raw: string, fallback: string, suffix = 'Item'): string {
  const name = orderWords(wordsOf(raw), fallback).map(cap).join('');
  return GLOBAL_TYPES.has(name) ? name + suffix : name;
}

/** userCard: for functions, routers, variables. Never empty, never a keyword. */
export function camelName(raw: string, fallback: string): string {
  const pascal = orderWords(wordsOf(raw), fallback).map(cap).join('');
  const camel = pascal.charAt(0).toLowerCase() + pascal.slice(1);
  return isReserved(camel) ? `do${pascal}` : camel;
}

/** user-card: for CSS classes and URL paths. */
export const kebabName = (raw: string): string => wordsOf(raw).join('-');

/** "user card": for sentences and labels. */
export const spacedName = (raw: string): string => wordsOf(raw).join(' ');

/** "User card": a label for a field or a heading. */
export const labelOf = (raw: string): string => cap(spacedName(raw));

/**
 * A field or parameter name as the user wrote it (first_name stays first_name), made a valid
 * identifier; a keyword gets a suffix (`class` → className, `for` → htmlFor, others `…Value`) so it
 * can be a destructured prop or a local variable.
 */
export function fieldName(raw: string): string {
  let name = raw.replace(/[^A-Za-z0-9_$]/g, '');
  if (name === '') name = 'value';
  if (/^[0-9]/.test(name)) name = `field${name}`;
  if (name === 'class') return 'className';
  if (name === 'for') return 'htmlFor';
  return isReserved(name) ? `${name}Value` : name;
}

/** Irregular plurals common in data models; the rest follow the English rules below. */
const IRREGULAR: Record<string, string> = {
  person: 'people',
  child: 'children',
  man: 'men',
  woman: 'women',
  mouse: 'mice',
  datum: 'data',
};
const IRREGULAR_SINGULAR = Object.fromEntries(Object.entries(IRREGULAR).map(([s, p]) => [p, s]));
/** Words whose singular and plural are the same. */
const INVARIANT = new Set(['data', 'info', 'news', 'series', 'species', 'feedback', 'media', 'status']);

/** The singular of an English noun (the last word of a name): todos → todo, categories → category. */
export function singular(word: string): string {
  const lower = word.toLowerCase();
  if (INVARIANT.has(lower)) return word;
  const irregular = IRREGULAR_SINGULAR[lower];
  if (irregular) return irregular;
  if (/[^aeiou]ies$/i.test(word)) return word.slice(0, -3) + 'y';
  if (/(ss|sh|ch|x|z)es$/i.test(word)) return word.slice(0, -2);
  if (/ses$/i.test(word)) return word.slice(0, -1);
  if (/[^su]s$/i.test(word)) return word.slice(0, -1);
  return word;
}

/** The plural of an English noun: todo → todos, category → categories, box → boxes. */
export function plural(word: string): string {
  const lower = word.toLowerCase();
  if (INVARIANT.has(lower)) return word;
  const irregular = IRREGULAR[lower];
  if (irregular) return irregular;
  if (singular(word) !== word) return word;
  if (/[^aeiou]y$/i.test(word)) return word.slice(0, -1) + 'ies';
  if (/(s|sh|ch|x|z)$/i.test(word)) return word + 'es';
  return word + 's';
}

/** A string literal in single quotes, safe for any text. */
export const quote = (text: string): string =>
  `'${text
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/\r?\n/g, '\\n')
    .replace(/[\u2028\u2029]/g, ' ')}'`;

/** Text that can go inside a block comment (JSDoc or JSX `{/* … *\/}`): no comment end, one line. */
export const commentText = (text: string): string =>
  text
    .replace(/\*\//g, '* /')
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** "a todo", "an item": the indefinite article for a noun phrase. */
export const withArticle = (phrase: string): string => `${/^[aeiou]/i.test(phrase) ? 'an' : 'a'} ${phrase}`;
