import { describe, expect, it } from 'vitest';
import { CODE_KINDS } from '@forge/shared';
import { readDescription, typeLabel, type Spec } from './grammar.ts';
import { camelName, fieldName, pascalName, plural, singular } from './names.ts';

/** The fields as the screen shows them: `name?: type`. */
const fieldsOf = (spec: Spec): string[] =>
  spec.fields.map((f) => `${f.name}${f.optional ? '?' : ''}: ${typeLabel(f.type)}`);

describe('the description grammar', () => {
  it('reads the examples of the docs', () => {
    const card = readDescription(
      'component',
      'a UserCard component with name: string, age?: number, avatarUrl: string and an onSelect callback',
    );
    expect(card.rawName).toBe('UserCard');
    expect(fieldsOf(card)).toEqual([
      'name: string',
      'age?: number',
      'avatarUrl: string',
      'onSelect: () => void',
    ]);

    const todos = readDescription('api', 'an api for todos with title: string, done: boolean');
    expect(todos.rawName).toBe('todos');
    expect(fieldsOf(todos)).toEqual(['title: string', 'done: boolean']);

    const slugify = readDescription(
      'function',
      'function slugify(text: string, maxLength?: number): string that makes a URL slug',
    );
    expect(slugify.rawName).toBe('slugify');
    expect(fieldsOf(slugify)).toEqual(['text: string', 'maxLength?: number']);
    expect(slugify.returns && typeLabel(slugify.returns)).toBe('string');
    // The doc comment gets the prose, not the signature the code shows anyway.
    expect(slugify.summary).toBe('makes a URL slug');

    const sum = readDescription(
      'function',
      'a function called sumPrices taking items: Item[] returning number',
    );
    expect(sum.rawName).toBe('sumPrices');
    expect(fieldsOf(sum)).toEqual(['items: Item[]']);
    expect(sum.returns && typeLabel(sum.returns)).toBe('number');

    const product = readDescription(
      'schema',
      'a schema Product with id: uuid, name: string(1..80), price: number >= 0, tags: string[]',
    );
    expect(product.rawName).toBe('Product');
    expect(fieldsOf(product)).toEqual([
      'id: uuid',
      'name: string(1..80)',
      'price: number >= 0',
      'tags: string[]',
    ]);
  });

  it('understands every type of the grammar', () => {
    const spec = readDescription(
      'schema',
      [
        'with a: string, b: number, c: int, d: boolean, e: Date, f: date, g: uuid, h: email, i: url,',
        "j: string[], k?: Address, l: 'draft' | 'live', m: active | archived, n: Array<number>, o: list of email,",
        'p: Item | null, q: object, r: unknown, s: (id: string, force?: boolean) => void, t: number > 0 and < 10,',
        'u: int between 1 and 5, v: string(..20), w: string[][], x: text (optional), y (bool), z: Record<string, number>',
      ].join(' '),
    );
    expect(fieldsOf(spec)).toEqual([
      'a: string',
      'b: number',
      'c: integer',
      'd: boolean',
      'e: Date',
      'f: Date',
      'g: uuid',
      'h: email',
      'i: url',
      'j: string[]',
      'k?: Address',
      "l: 'draft' | 'live'",
      "m: 'active' | 'archived'",
      'n: number[]',
      'o: email[]',
      'p?: Item',
      'q: object',
      'r: unknown',
      's: (id: string, force?: boolean) => void',
      't: number > 0 < 10',
      'u: integer >= 1 <= 5',
      'v: string(..20)',
      'w: string[][]',
      'x?: string',
      'y: boolean',
      'z: object',
    ]);
  });

  it('guesses the type of a field named without one, from its name', () => {
    const spec = readDescription(
      'api',
      'an api for orders with title, isPaid, done, price, quantity, createdAt, email, website, avatar, tags, onSave and an onCancel handler',
    );
    expect(fieldsOf(spec)).toEqual([
      'title: string',
      'isPaid: boolean',
      'done: boolean',
      'price: number',
      'quantity: number',
      'createdAt: Date',
      'email: email',
      'website: url',
      'avatar: url',
      'tags: string[]',
      'onSave: () => void',
      'onCancel: () => void',
    ]);
  });

  it('takes the name from where the description says it', () => {
    const name = (kind: (typeof CODE_KINDS)[number], text: string) => readDescription(kind, text).rawName;
    expect(name('component', 'a user profile card component with name: string')).toBe('user profile card');
    expect(name('component', 'component ProfileCard with name: string')).toBe('ProfileCard');
    expect(name('component', 'something named "Order Summary" with total: number')).toBe('Order Summary');
    expect(name('api', 'an api for blog posts with title: string')).toBe('blog posts');
    expect(name('api', 'Invoices API with amount: number')).toBe('Invoices');
    expect(name('schema', 'schema for a shipping address with street: string')).toBe('shipping address');
    expect(name('function', 'a helper called formatDuration taking ms: number')).toBe('formatDuration');
    // No kind word, no "called": a PascalCase or camelCase word, else the first words.
    expect(name('component', 'shows a WeatherPanel for the city')).toBe('WeatherPanel');
    expect(name('component', 'shows the current weather')).toBe('current weather');
  });

  it('falls back to a default name when the description has none', () => {
    for (const kind of CODE_KINDS) {
      const spec = readDescription(kind, '!!! ??? ...');
      expect(spec.named).toBe(false);
      expect(spec.fields).toEqual([]);
    }
    expect(readDescription('component', '?').rawName).toBe('MyComponent');
    expect(readDescription('function', '?').rawName).toBe('compute');
  });

  it('never throws, and every field name it reads is an identifier', () => {
    // A fixed-seed generator of nasty descriptions: grammar words, punctuation and junk.
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pieces = [
      'with',
      'and',
      ',',
      ':',
      '?',
      '|',
      '(',
      ')',
      '[]',
      '[',
      ']',
      '<',
      '>',
      '>=',
      '..',
      '=>',
      "'",
      '"',
      '`',
      'string',
      'number',
      'Item',
      'a',
      'the',
      'returning',
      'called',
      'function',
      'component',
      'onSelect',
      'callback',
      '123',
      '-4',
      'null',
      'list',
      'of',
      'Array',
      '*/',
      '${x}',
      '\\',
      'é',
      '漢字',
      '🎉',
      'class',
    ];
    for (let n = 0; n < 500; n++) {
      const words = Array.from(
        { length: Math.floor(random() * 25) },
        () => pieces[Math.floor(random() * pieces.length)]!,
      );
      const text = words.join(random() < 0.5 ? ' ' : '');
      for (const kind of CODE_KINDS) {
        const spec = readDescription(kind, text);
        for (const f of spec.fields) expect(f.name, `${kind}: ${text}`).toMatch(/^[A-Za-z_$][\w$]*$/);
      }
    }
  });
});

describe('names', () => {
  it('makes identifiers of any words', () => {
    expect(pascalName('user card', 'X')).toBe('UserCard');
    expect(pascalName('user-card', 'X')).toBe('UserCard');
    expect(pascalName('3d view', 'X')).toBe('View3d');
    expect(pascalName('2024', 'Item')).toBe('Item2024');
    expect(pascalName('!!!', 'MyComponent')).toBe('MyComponent');
    // Never a global the code relies on.
    expect(pascalName('record', 'X')).toBe('RecordItem');
    expect(pascalName('date', 'X', 'View')).toBe('DateView');
    expect(camelName('Sum Prices', 'x')).toBe('sumPrices');
    expect(camelName('delete', 'x')).toBe('doDelete');
    expect(fieldName('class')).toBe('className');
    expect(fieldName('default')).toBe('defaultValue');
    expect(fieldName('first_name')).toBe('first_name');
  });

  it('turns nouns singular and plural', () => {
    expect(['todos', 'categories', 'boxes', 'addresses', 'people', 'status', 'bus'].map(singular)).toEqual([
      'todo',
      'category',
      'box',
      'address',
      'person',
      'status',
      'bus',
    ]);
    expect(['todo', 'category', 'box', 'person', 'todos', 'data'].map(plural)).toEqual([
      'todos',
      'categories',
      'boxes',
      'people',
      'todos',
      'data',
    ]);
  });
});
