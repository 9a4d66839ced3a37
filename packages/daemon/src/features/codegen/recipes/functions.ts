import type { Emitted, Language } from '../emit-common.ts';
import { pascalName } from '../names.ts';
import { renderTemplate, type Substitutions } from '../ts-template.ts';
import { functionName, hasWord } from './describe.ts';
import type { Recipe } from './recipe.ts';

/**
 * Functions developers ask for most, each a complete implementation: cart totals, debounce,
 * throttle, retry with backoff, memoize, grouping, sorting, summing and averaging records, date and
 * currency formatting, password strength, deep clone and merge, chunking.
 */

function fn(name: string, template: string, language: Language, subs: Substitutions = {}): Emitted {
  return {
    name,
    fileName: `${name}.${language === 'typescript' ? 'ts' : 'js'}`,
    code: renderTemplate(template, { $name: name, ...subs }, language, false),
  };
}

// ----------------------------------------------------------------------------------------------

const CART_ITEM = `/** One line of the cart: its unit price and how many of it. */
export interface $Item {
  price: number;
  quantity: number;
}
`;

const cartTotal: Recipe = {
  id: 'cart-total',
  kinds: ['function'],
  fields: 'collections',
  summary: 'the total of price × quantity over the items',
  // price × quantity is what a cart total is: said outright, or as "the total" of a cart.
  match: (d) =>
    (hasWord(d, /^(quantity|quantities|qty)$/) && hasWord(d, /^(price|prices|cost)$/)) ||
    (hasWord(d, /^(cart|carts|basket|checkout)$/) && hasWord(d, /^(total|totals|subtotal)$/)),
  vocabulary:
    /^(cart|carts|basket|shopping|checkout|order|orders|line|over|total|totals|subtotal|sum|price|prices|cost|costs|unit|quantity|quantities|qty|calculate|calculates|calculating|compute|computes|discount|discounts|discounted|percent|percentage|applying|apply|applies|applied|tax|taxes|vat|rate|after|plus|minus|times|multiplied|amount|rounded|round|cents|less|every|each|product|products)$/,
  examples: (d) => {
    const items = [
      { price: 10, quantity: 3 },
      { price: 2.5, quantity: 2 },
    ];
    const discount = hasWord(d, /^discount(s|ed)?$/);
    const tax = hasWord(d, /^(tax|taxes|vat)$/);
    return [
      { args: [items], returns: 35 },
      { args: [[]], returns: 0 },
      ...(discount ? [{ args: [items, 10], returns: 31.5 }] : []),
      ...(tax && !discount ? [{ args: [items, 20], returns: 42 }] : []),
    ];
  },
  build(d, language) {
    const discount = hasWord(d, /^discount(s|ed)?$/);
    const tax = hasWord(d, /^(tax|taxes|vat)$/);
    const ref = d.spec.fields.find((f) => f.type.kind === 'array' && f.type.of.kind === 'ref');
    const item = ref?.type.kind === 'array' && ref.type.of.kind === 'ref' ? ref.type.of.name : 'CartItem';
    const itemsName = ref?.name ?? 'items';
    const params = [
      '$items: readonly $Item[]',
      ...(discount ? ['discountPercent = 0'] : []),
      ...(tax ? ['taxPercent = 0'] : []),
    ].join(', ');
    const steps = [
      `let total = $items.reduce((sum, item) => sum + item.price * item.quantity, 0);`,
      ...(discount ? ['total *= 1 - Math.min(Math.max(discountPercent, 0), 100) / 100;'] : []),
      ...(tax ? ['total *= 1 + Math.max(taxPercent, 0) / 100;'] : []),
      'return Math.round(total * 100) / 100;',
    ];
    const doc = [
      'The total of the cart: the sum of price × quantity over its items',
      discount ? ', less the discount percent (kept between 0 and 100)' : '',
      tax ? ', plus the tax percent' : '',
      ', rounded to cents.',
    ].join('');
    const template = `${CART_ITEM}
/** ${doc} */
export function $name(${params}): number {
  ${steps.join('\n  ')}
}
`;
    return fn(functionName(d, 'cartTotal'), template, language, {
      $Item: pascalName(item, 'CartItem'),
      $items: itemsName,
    });
  },
};

const debounce: Recipe = {
  id: 'debounce',
  kinds: ['function'],
  fields: 'collections',
  summary: 'a debounced function: one call, `delayMs` after the last',
  match: (d) => hasWord(d, /^debounc/) && !hasWord(d, /^(hook|hooks|use|usedebounce|state)$/),
  vocabulary:
    /^(debounce|debounced|debounces|debouncing|delay|delays|delayed|wait|waits|milliseconds|millisecond|ms|calls?|called|last|after|until|stops?|timer|cancel|cancellable|invocation|invocations|trailing|time)$/,
  build: (d, language) =>
    fn(
      functionName(d, 'debounce'),
      `/** A debounced function, which can also drop its pending call. */
export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Drops the pending call, if any. */
  cancel(): void;
}

/** Calls fn once, delayMs after the last of a burst of calls, with that last call's arguments. */
export function $name<A extends unknown[]>(fn: (...args: A) => void, delayMs: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn(...args);
    }, delayMs);
  };
  return Object.assign(debounced, {
    cancel(): void {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  });
}
`,
      language,
    ),
};

const throttle: Recipe = {
  id: 'throttle',
  kinds: ['function'],
  fields: 'collections',
  summary: 'a throttled function: at most one call per interval, the last one kept',
  match: (d) => hasWord(d, /^throttl/) && !hasWord(d, /^(hook|use)$/),
  vocabulary:
    /^(throttle|throttled|throttles|throttling|interval|intervals|limit|limits|rate|once|per|every|at|most|milliseconds|ms|wait|delay|calls?|time|period|trailing|leading)$/,
  build: (d, language) =>
    fn(
      functionName(d, 'throttle'),
      `/**
 * Calls fn at most once every intervalMs: the first call runs at once, calls during the interval
 * are folded into one trailing call with the latest arguments.
 */
export function $name<A extends unknown[]>(fn: (...args: A) => void, intervalMs: number): (...args: A) => void {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  return (...args: A): void => {
    const wait = last + intervalMs - Date.now();
    if (wait <= 0 && timer === undefined) {
      last = Date.now();
      fn(...args);
      return;
    }
    pending = args;
    timer ??= setTimeout(() => {
      timer = undefined;
      last = Date.now();
      const next = pending;
      pending = undefined;
      if (next) fn(...next);
    }, Math.max(wait, 0));
  };
}
`,
      language,
    ),
};

const retry: Recipe = {
  id: 'retry',
  kinds: ['function'],
  fields: 'collections',
  summary: 'retries a failing async task with exponential backoff',
  match: (d) => hasWord(d, /^(retry|retries|retrying|retried)$/),
  vocabulary:
    /^(retry|retries|retrying|retried|backoff|back|off|exponential|exponentially|attempts?|times|max|maximum|delay|delays|base|factor|async|promise|promises|task|tasks|operation|fails?|failing|failed|failure|errors?|again|until|succeeds?|wait|waits|between|doubling|milliseconds|ms|up|with)$/,
  build: (d, language) =>
    fn(
      functionName(d, 'retry'),
      `export interface RetryOptions {
  /** Attempts after the first one (default 3). */
  retries?: number;
  /** The wait before the first retry, in ms (default 200). */
  baseDelayMs?: number;
  /** How much the wait grows after each failure (default 2: 200, 400, 800 ms…). */
  factor?: number;
  /** The longest wait, in ms (default 10 000). */
  maxDelayMs?: number;
}

/**
 * Runs task until it succeeds, waiting baseDelayMs × factor^n between attempts (exponential
 * backoff); after the last retry the task's own error is thrown.
 */
export async function $name<T>(task: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { retries = 3, baseDelayMs = 200, factor = 2, maxDelayMs = 10_000 } = options;
  for (let attempt = 0; ; attempt++) {
    try {
      return await task(attempt);
    } catch (error) {
      if (attempt >= retries) throw error;
      const delay = Math.min(baseDelayMs * factor ** attempt, maxDelayMs);
      await new Promise<void>((resolve) => setTimeout(resolve, delay));
    }
  }
}
`,
      language,
    ),
};

const memoize: Recipe = {
  id: 'memoize',
  kinds: ['function'],
  fields: 'collections',
  summary: 'a memoized function: each distinct argument list computed once',
  match: (d) =>
    hasWord(d, /^(memoi[sz]e|memoi[sz]ed|memoi[sz]es|memoization|memo|cache|caches|caching|cached)$/),
  vocabulary:
    /^(memoi[sz]e|memoi[sz]ed|memoi[sz]es|memoization|memo|cache|caches|caching|cached|results?|arguments?|same|calls?|expensive|computations?|pure|key|keys|remember|remembers|once|recompute|again)$/,
  build: (d, language) =>
    fn(
      functionName(d, 'memoize'),
      `/**
 * Wraps fn so that each distinct argument list is computed once; later calls with the same
 * arguments (compared by keyOf, JSON by default) return the remembered result.
 */
export function $name<A extends unknown[], R>(
  fn: (...args: A) => R,
  keyOf: (...args: A) => string = (...args) => JSON.stringify(args),
): (...args: A) => R {
  const cache = new Map<string, R>();
  return (...args: A): R => {
    const key = keyOf(...args);
    if (cache.has(key)) return cache.get(key) as R;
    const result = fn(...args);
    cache.set(key, result);
    return result;
  };
}
`,
      language,
    ),
};

const groupBy: Recipe = {
  id: 'group-by',
  kinds: ['function'],
  fields: 'collections',
  summary: 'groups records by a property or a key function',
  match: (d) => hasWord(d, /^(group|groups|grouped|grouping|groupby|bucket|buckets)$/),
  vocabulary:
    /^(group|groups|grouped|grouping|groupby|bucket|buckets|key|keys|by|same|together|each|per|category|categories|status|properties|property|attribute|rows|users|orders|products|objects)$/,
  examples: () => [
    {
      args: [
        [
          { s: 'a', n: 1 },
          { s: 'b', n: 2 },
          { s: 'a', n: 3 },
        ],
        's',
      ],
      returns: {
        a: [
          { s: 'a', n: 1 },
          { s: 'a', n: 3 },
        ],
        b: [{ s: 'b', n: 2 }],
      },
    },
  ],
  build: (d, language) =>
    fn(
      functionName(d, 'groupBy'),
      `/** The items grouped by a property's value (or by what key returns), in their original order. */
export function $name<T>(items: readonly T[], key: keyof T | ((item: T) => PropertyKey)): Record<string, T[]> {
  const groups: Record<string, T[]> = {};
  for (const item of items) {
    const group = String(typeof key === 'function' ? key(item) : item[key]);
    (groups[group] ??= []).push(item);
  }
  return groups;
}
`,
      language,
    ),
};

/** Words that say the values are properties of records, not plain numbers. */
const RECORDS = /^(records|objects|rows|entries|property|properties|field|key|users|orders|products)$/;

const sortBy: Recipe = {
  id: 'sort-by',
  kinds: ['function'],
  fields: 'collections',
  summary: 'a sorted copy of the records by a property, ascending or descending',
  match: (d) =>
    hasWord(d, /^(sort|sorts|sorted|sorting|sortby|order)$/) && hasWord(d, /^(by|property|key|field)$/),
  vocabulary:
    /^(sort|sorts|sorted|sorting|sortby|order|by|property|key|field|ascending|descending|asc|desc|direction|copy|records|objects|rows|entries|collection|data|users|orders|products|without|mutating|original|stable)$/,
  examples: () => [
    { args: [[{ n: 2 }, { n: 1 }, { n: 3 }], 'n'], returns: [{ n: 1 }, { n: 2 }, { n: 3 }] },
    { args: [[{ n: 2 }, { n: 1 }, { n: 3 }], 'n', 'desc'], returns: [{ n: 3 }, { n: 2 }, { n: 1 }] },
  ],
  build: (d, language) =>
    fn(
      functionName(d, 'sortBy'),
      `/**
 * A sorted copy of items by the value of key (the input is not changed): strings by locale,
 * numbers and dates by value; missing values last.
 */
export function $name<T>(items: readonly T[], key: keyof T, direction: 'asc' | 'desc' = 'asc'): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (x === y) return 0;
    if (x === undefined || x === null) return 1;
    if (y === undefined || y === null) return -1;
    if (typeof x === 'string' && typeof y === 'string') return sign * x.localeCompare(y);
    return sign * (x < y ? -1 : 1);
  });
}
`,
      language,
    ),
};

const sumBy: Recipe = {
  id: 'sum-by',
  kinds: ['function'],
  fields: 'collections',
  summary: 'the sum of a numeric property over the records',
  match: (d) =>
    hasWord(d, /^(sum|sums|summing|total|totals|add)$/) &&
    hasWord(d, RECORDS) &&
    !hasWord(d, /^(average|mean|avg)$/),
  vocabulary:
    /^(sum|sums|summing|total|totals|add|up|property|key|field|numeric|records|objects|rows|entries|list|array|items|collection|data|over|across|users|orders|products|amounts?)$/,
  examples: () => [
    { args: [[{ n: 2 }, { n: 1.5 }], 'n'], returns: 3.5 },
    { args: [[], 'n'], returns: 0 },
  ],
  build: (d, language) =>
    fn(
      functionName(d, 'sumBy'),
      `/** The sum of a numeric property (or of what value returns) over the items; 0 for none. */
export function $name<T>(items: readonly T[], value: keyof T | ((item: T) => number)): number {
  return items.reduce((sum, item) => sum + (typeof value === 'function' ? value(item) : Number(item[value])), 0);
}
`,
      language,
    ),
};

const averageBy: Recipe = {
  id: 'average-by',
  kinds: ['function'],
  fields: 'collections',
  summary: 'the average of a numeric property over the records',
  match: (d) => hasWord(d, /^(average|averages|mean|avg)$/) && hasWord(d, RECORDS),
  vocabulary:
    /^(average|averages|mean|avg|arithmetic|property|key|field|numeric|records|objects|rows|entries|list|array|items|collection|data|over|across|users|orders|products|empty|zero|amounts?|scores?|ratings?|ages?)$/,
  examples: () => [{ args: [[{ n: 2 }, { n: 4 }, { n: 9 }], 'n'], returns: 5 }],
  build: (d, language) =>
    fn(
      functionName(d, 'averageBy'),
      `/** The average of a numeric property (or of what value returns) over the items; NaN for none. */
export function $name<T>(items: readonly T[], value: keyof T | ((item: T) => number)): number {
  if (items.length === 0) return Number.NaN;
  const sum = items.reduce((total, item) => total + (typeof value === 'function' ? value(item) : Number(item[value])), 0);
  return sum / items.length;
}
`,
      language,
    ),
};

const formatDate: Recipe = {
  id: 'format-date',
  kinds: ['function'],
  fields: 'collections',
  summary: 'a date formatted for a locale with Intl.DateTimeFormat',
  match: (d) =>
    hasWord(d, /^(format|formats|formatted|formatting|display|pretty|human|readable)$/) &&
    hasWord(d, /^(date|dates|datetime|timestamp|day)$/),
  vocabulary:
    /^(format|formats|formatted|formatting|display|pretty|human|readable|date|dates|datetime|timestamp|day|locale|locales|language|intl|style|long|short|medium|full|iso|string|time)$/,
  examples: () => [{ args: ['2024-03-05T12:00:00Z', 'en-US'], returns: 'Mar 5, 2024' }],
  build: (d, language) =>
    fn(
      functionName(d, 'formatDate'),
      `/**
 * A date as people of locale write it (Intl.DateTimeFormat, "Mar 5, 2024" in en-US by default).
 * Accepts a Date, an ISO string or a timestamp; an invalid date is a RangeError.
 */
export function $name(
  date: Date | string | number,
  locale = 'en-US',
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' },
): string {
  const value = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(value.getTime())) throw new RangeError('Not a date: ' + String(date));
  return new Intl.DateTimeFormat(locale, options).format(value);
}
`,
      language,
    ),
};

const formatCurrency: Recipe = {
  id: 'format-currency',
  kinds: ['function'],
  fields: 'collections',
  summary: 'an amount formatted as money with Intl.NumberFormat',
  match: (d) =>
    hasWord(d, /^(format|formats|formatted|formatting|display|show)$/) &&
    hasWord(d, /^(currency|currencies|money|price|prices|amount|cost|dollars|euros)$/),
  vocabulary:
    /^(format|formats|formatted|formatting|display|show|currency|currencies|money|price|prices|amount|cost|dollars|euros|locale|locales|intl|code|iso|symbol|as|cents|decimals)$/,
  examples: () => [{ args: [1234.5], returns: '$1,234.50' }],
  build: (d, language) =>
    fn(
      functionName(d, 'formatCurrency'),
      `/** An amount as money in locale, e.g. "$1,234.50" (Intl.NumberFormat; currency is an ISO 4217 code). */
export function $name(amount: number, currency = 'USD', locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
}
`,
      language,
    ),
};

const passwordStrength: Recipe = {
  id: 'password-strength',
  kinds: ['function'],
  fields: 'collections',
  summary: "a password's strength (0–4, weak to strong) and what it lacks",
  match: (d) =>
    hasWord(d, /^(password|passwords|passphrase)$/) &&
    hasWord(d, /^(strength|strong|weak|score|rate|rates|check|checks|validate|validates|validation|valid)$/),
  vocabulary:
    /^(password|passwords|passphrase|strength|strong|weak|score|scores|rate|rates|check|checks|validate|validates|validation|valid|how|is|rules?|length|characters?|upper|lower|case|uppercase|lowercase|digits?|symbols?|special|missing|problems?|feedback|label)$/,
  build: (d, language) =>
    fn(
      functionName(d, 'passwordStrength'),
      `export interface PasswordStrength {
  /** 0 (weak) to 4 (strong). */
  score: 0 | 1 | 2 | 3 | 4;
  label: 'weak' | 'fair' | 'good' | 'strong';
  /** What the password lacks, e.g. "an upper-case letter". */
  missing: string[];
}

/**
 * How strong a password is: one point each for 8 characters or more, a lower-case letter, an
 * upper-case letter, a digit and a symbol, one more for 12 characters; under 8 characters it is
 * weak whatever it contains.
 */
export function $name(password: string): PasswordStrength {
  const missing: string[] = [];
  if (password.length < 8) missing.push('at least 8 characters');
  if (!/[a-z]/.test(password)) missing.push('a lower-case letter');
  if (!/[A-Z]/.test(password)) missing.push('an upper-case letter');
  if (!/[0-9]/.test(password)) missing.push('a digit');
  if (!/[^A-Za-z0-9]/.test(password)) missing.push('a symbol');
  const points = 5 - missing.length + (password.length >= 12 ? 1 : 0);
  const score = (password.length < 8 ? Math.min(points, 1) : Math.min(Math.max(points - 2, 0), 4)) as PasswordStrength['score'];
  const label = (['weak', 'weak', 'fair', 'good', 'strong'] as const)[score];
  return { score, label, missing };
}
`,
      language,
    ),
};

const deepClone: Recipe = {
  id: 'deep-clone',
  kinds: ['function'],
  fields: 'collections',
  summary: 'a deep copy (structuredClone: nested objects, arrays, dates, maps, sets, cycles)',
  match: (d) =>
    hasWord(d, /^(clone|cloning|cloned|copy|copies|copying)$/) &&
    hasWord(d, /^(deep|deeply|nested|recursive|recursively|deepclone)$/),
  vocabulary:
    /^(clone|cloning|cloned|copy|copies|copying|deep|deeply|nested|recursive|recursively|deepclone|structured|independent|cycles|circular|maps|sets)$/,
  build: (d, language) =>
    fn(
      functionName(d, 'deepClone'),
      `/**
 * A deep copy of value: nested objects and arrays, dates, maps, sets and cycles are copied
 * (structuredClone); functions and class instances' methods cannot be, and throw a DataCloneError.
 */
export function $name<T>(value: T): T {
  return structuredClone(value);
}
`,
      language,
    ),
};

const deepMerge: Recipe = {
  id: 'deep-merge',
  kinds: ['function'],
  fields: 'collections',
  summary: 'a deep merge of plain objects into a new object',
  match: (d) =>
    hasWord(d, /^(merge|merges|merging|merged|deepmerge)$/) &&
    hasWord(d, /^(deep|deeply|nested|recursive|recursively|deepmerge|objects?)$/),
  vocabulary:
    /^(merge|merges|merging|merged|deepmerge|deep|deeply|nested|recursive|recursively|objects?|plain|sources?|target|later|override|overrides|wins?|new|without|mutating|configs?|settings)$/,
  examples: () => [
    {
      args: [
        { a: { b: 1 }, l: [1] },
        { a: { c: 2 }, l: [2] },
      ],
      returns: { a: { b: 1, c: 2 }, l: [2] },
    },
  ],
  build: (d, language) =>
    fn(
      functionName(d, 'deepMerge'),
      `type PlainObject = Record<string, unknown>;

const isPlainObject = (value: unknown): value is PlainObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/**
 * A new object with the sources merged into target, left to right: nested plain objects are
 * merged, anything else (arrays included) is replaced by the later value. The inputs are not
 * changed; keys that could reach a prototype are skipped.
 */
export function $name<T extends PlainObject>(target: T, ...sources: PlainObject[]): T {
  const result: PlainObject = { ...target };
  for (const source of sources) {
    for (const [key, value] of Object.entries(source)) {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
      const current = result[key];
      result[key] = isPlainObject(current) && isPlainObject(value) ? $name(current, value) : value;
    }
  }
  return result as T;
}
`,
      language,
    ),
};

const chunk: Recipe = {
  id: 'chunk',
  kinds: ['function'],
  fields: 'collections',
  summary: 'the items split into chunks of a given size',
  match: (d) =>
    hasWord(d, /^(chunk|chunks|chunked|chunking|batch|batches|split|splits)$/) &&
    hasWord(d, /^(size|sized|chunk|chunks|batch|batches|groups|pieces|parts|n)$/),
  vocabulary:
    /^(chunk|chunks|chunked|chunking|batch|batches|split|splits|size|sized|groups?|pieces|parts|n|of|each|most|last|smaller|shorter|remainder)$/,
  examples: () => [
    { args: [[1, 2, 3, 4, 5], 2], returns: [[1, 2], [3, 4], [5]] },
    { args: [[], 3], returns: [] },
  ],
  build: (d, language) =>
    fn(
      functionName(d, 'chunk'),
      `/** The items in consecutive chunks of size (the last one may be shorter); size must be a positive integer. */
export function $name<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError('size must be a positive integer, not ' + String(size));
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
`,
      language,
    ),
};

const isPrime: Recipe = {
  id: 'is-prime',
  kinds: ['function'],
  fields: 'collections',
  summary: 'whether an integer is prime (trial division up to its square root)',
  match: (d) => hasWord(d, /^(prime|primes|isprime|primality)$/),
  vocabulary: /^(prime|primes|isprime|primality|check|checks|test|tests|if|is|whether|integer|n)$/,
  examples: () => [
    { args: [2], returns: true },
    { args: [1], returns: false },
    { args: [97], returns: true },
    { args: [91], returns: false },
  ],
  build: (d, language) =>
    fn(
      functionName(d, 'isPrime'),
      `/** Whether n is a prime number: an integer above 1 whose only divisors are 1 and itself. */
export function $name(n: number): boolean {
  if (!Number.isInteger(n) || n < 2) return false;
  if (n % 2 === 0) return n === 2;
  for (let divisor = 3; divisor * divisor <= n; divisor += 2) {
    if (n % divisor === 0) return false;
  }
  return true;
}
`,
      language,
    ),
};

const temperature: Recipe = {
  id: 'temperature',
  kinds: ['function'],
  fields: 'collections',
  summary: 'a temperature converted between Celsius and Fahrenheit',
  match: (d) => hasWord(d, /^celsius$/) && hasWord(d, /^fahrenheit$/),
  vocabulary:
    /^(convert|converts|conversion|converting|celsius|fahrenheit|temperature|temperatures|degrees|to|from)$/,
  examples: (d) =>
    d.text.indexOf('fahrenheit') < d.text.indexOf('celsius')
      ? [{ args: [212], returns: 100 }]
      : [{ args: [100], returns: 212 }],
  build(d, language) {
    const toFahrenheit = d.text.indexOf('celsius') < d.text.indexOf('fahrenheit');
    return toFahrenheit
      ? fn(
          functionName(d, 'celsiusToFahrenheit'),
          `/** degrees Celsius in degrees Fahrenheit (°F = °C × 9/5 + 32). */
export function $name(celsius: number): number {
  return (celsius * 9) / 5 + 32;
}
`,
          language,
        )
      : fn(
          functionName(d, 'fahrenheitToCelsius'),
          `/** degrees Fahrenheit in degrees Celsius (°C = (°F − 32) × 5/9). */
export function $name(fahrenheit: number): number {
  return ((fahrenheit - 32) * 5) / 9;
}
`,
          language,
        );
  },
};

/** Recipes tried before the function emitter's own tasks: their words are specific. */
export const FUNCTION_RECIPES: readonly Recipe[] = [
  cartTotal,
  debounce,
  throttle,
  retry,
  memoize,
  groupBy,
  formatDate,
  passwordStrength,
  deepClone,
  deepMerge,
  chunk,
  isPrime,
  temperature,
];

/** Recipes over records tried after the emitter's own tasks (which handle typed parameters). */
export const RECORD_RECIPES: readonly Recipe[] = [sortBy, averageBy, sumBy, formatCurrency];
