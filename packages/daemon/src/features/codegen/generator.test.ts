import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import express, { type Router } from 'express';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_KINDS, GenerateResult, type CodeKind } from '@forge/shared';
import { generateFromTemplate, type Language } from './generator.ts';
import { checkGenerated, type GeneratedFile } from './type-check.ts';

/** Descriptions per kind: the docs' examples, odd ones, and ones with nothing the grammar knows. */
const DESCRIPTIONS: Record<CodeKind, string[]> = {
  component: [
    'a UserCard component with name: string, age?: number, avatarUrl: string and an onSelect callback',
    "a ProductTile component with title: string, price: number >= 0, tags: string[], createdAt: Date, website?: url, contact: email, status: 'new' | 'sold', onBuy: (id: string, quantity: number) => void, id: string, quantity: number",
    'a Tree component with label: string, children?: Tree[], meta: Address',
    'a panel with heading: string, body: node and isOpen',
    'a card that shows the weather',
    '!!! 123 ???',
  ],
  api: [
    'an api for todos with title: string, done: boolean',
    'crud for blog posts with title: string(1..120), body, published, rating: int between 1 and 5, tags: string[], author: Author, createdAt: date, status: draft | live, website?: url, email, id: uuid',
    'routes for categories with parent?: Category, onChange',
    'an api',
    'class default new delete',
  ],
  function: [
    'function slugify(text: string, maxLength?: number): string that turns a title into a URL slug',
    'a function called sumPrices taking items: Item[] returning number',
    'function isValidEmail(email: string): boolean',
    'function sortByAge(people: Person[]) descending',
    'function filterActive taking users: User[]',
    'function formatPrice(amount: number, currency?: string)',
    'clamp',
    'function describeOrder(order: Order, note?: string, count: int) that explains an order',
    'function merge(a: Item[], b?: Item[]): Item[]',
    'a function that greets the user',
    "function pick(status: string, fallback?: number): 'a' | 'b'",
  ],
  schema: [
    'a schema Product with id: uuid, name: string(1..80), price: number >= 0, tags: string[]',
    "a Category schema with name: string, parent?: Category | null, children: Category[], kind: 'a' | 'b', ranking: int > 0, site: url, owner: Person, when: date, extra: unknown, data: object",
    'schema named "order line" with quantity: int >= 1, unitPrice: number',
    'a schema',
    "*/ `tick` ${x} 'quote \\ back",
  ],
};

const LANGUAGES: Language[] = ['typescript', 'javascript'];

interface Case {
  kind: CodeKind;
  description: string;
  language: Language;
  result: GenerateResult;
  file: GeneratedFile;
}

const cases: Case[] = [];
for (const kind of CODE_KINDS) {
  DESCRIPTIONS[kind].forEach((description, i) => {
    for (const language of LANGUAGES) {
      const { result } = generateFromTemplate(kind, description, language);
      cases.push({
        kind,
        description,
        language,
        result,
        file: { fileName: `${kind}-${i}-${result.fileName}`, code: result.code },
      });
    }
  });
}

describe('the built-in generator', () => {
  let diagnostics: Map<string, string[]>;
  beforeAll(() => {
    // One program for every file: checking 80 files one by one would take a minute.
    diagnostics = checkGenerated(cases.map((c) => c.file));
  }, 120_000);

  it.each(cases.map((c) => [c.kind, c.language, c.description, c] as const))(
    '%s (%s) from "%s" type-checks (TypeScript) or parses (JavaScript)',
    (_kind, _language, _description, c) => {
      expect(diagnostics.get(c.file.fileName), c.result.code).toEqual([]);
      expect(GenerateResult.parse(c.result)).toEqual(c.result);
      // Deterministic: the same description gives the same file.
      expect(generateFromTemplate(c.kind, c.description, c.language).result).toEqual(c.result);
    },
  );

  it('the checker itself finds type errors, unresolved imports and TypeScript in JavaScript', () => {
    const found = checkGenerated([
      {
        fileName: 'wrong-type.ts',
        code: "import { z } from 'zod';\nexport const n: number = z.string().parse('1');\n",
      },
      {
        fileName: 'wrong-prop.tsx',
        code: 'export const A = ({ n }: { n: number }) => <div>{n.toUpperCase()}</div>;\n',
      },
      {
        fileName: 'no-module.ts',
        code: "import { nothing } from 'no-such-module';\nexport const x = nothing;\n",
      },
      { fileName: 'typed.js', code: 'export const x: number = 1;\n' },
      { fileName: 'unused.ts', code: 'export function f(a: string): number {\n  return 1;\n}\n' },
      { fileName: 'fine.ts', code: "import { Router } from 'express';\nexport const r = Router();\n" },
    ]);
    for (const name of ['wrong-type.ts', 'wrong-prop.tsx', 'no-module.ts', 'typed.js', 'unused.ts']) {
      expect(found.get(name), name).not.toEqual([]);
    }
    expect(found.get('fine.ts')).toEqual([]);
  });

  it('reports the name and the fields it read, and names the file after them', () => {
    const card = generateFromTemplate(
      'component',
      'a UserCard component with name: string, age?: number, avatarUrl: string and an onSelect callback',
    ).result;
    expect(card).toMatchObject({
      name: 'UserCard',
      fileName: 'UserCard.tsx',
      language: 'typescript',
      source: 'template',
    });
    expect(card.fields).toEqual([
      { name: 'name', type: 'string', optional: false },
      { name: 'age', type: 'number', optional: true },
      { name: 'avatarUrl', type: 'string', optional: false },
      { name: 'onSelect', type: '() => void', optional: false },
    ]);
    expect(generateFromTemplate('component', 'a UserCard component', 'javascript').result.fileName).toBe(
      'UserCard.jsx',
    );
    expect(generateFromTemplate('api', 'an api for todos').result).toMatchObject({
      name: 'todosRouter',
      fileName: 'todos.ts',
    });
    expect(generateFromTemplate('schema', 'a schema Product').result).toMatchObject({
      name: 'ProductSchema',
      fileName: 'Product.ts',
    });
    expect(generateFromTemplate('function', 'slugify', 'javascript').result).toMatchObject({
      name: 'slugify',
      fileName: 'slugify.js',
    });
  });

  it('writes each kind as the docs say', () => {
    const card = generateFromTemplate('component', DESCRIPTIONS.component[0]!).result.code;
    expect(card).toContain('export interface UserCardProps {');
    expect(card).toContain('  onSelect: () => void;');
    expect(card).toContain('export function UserCard({ name, age, avatarUrl, onSelect }: UserCardProps)');
    expect(card).toContain('<img src={avatarUrl} alt={name} />');

    const api = generateFromTemplate('api', DESCRIPTIONS.api[0]!).result.code;
    expect(api).toContain("import { Router } from 'express';");
    expect(api.match(/^import /gm)).toHaveLength(1);
    for (const route of ["get('/'", "get('/:id'", "post('/'", "patch('/:id'", "delete('/:id'"]) {
      expect(api).toContain(`todosRouter.${route}`);
    }

    const schema = generateFromTemplate('schema', DESCRIPTIONS.schema[0]!).result.code;
    expect(schema).toContain("import { z } from 'zod';");
    expect(schema).toContain('  name: z.string().min(1).max(80),');
    expect(schema).toContain('export type Product = z.infer<typeof ProductSchema>;');

    // A function whose task the generator does not know is a skeleton: typed, marked, and a body
    // that throws rather than a value computed some other way than the description asks.
    for (const description of DESCRIPTIONS.function) {
      const { result } = generateFromTemplate('function', description);
      if (result.kind === 'implemented') expect(result.code).not.toMatch(/throw new Error/);
      else expect(result.code).toMatch(/^\/\/ Skeleton: [^]*throw new Error\('\w+ is a skeleton/);
    }
    const unknown = generateFromTemplate('function', DESCRIPTIONS.function[7]!).result;
    expect(unknown.kind).toBe('skeleton');
    expect(unknown.code).toContain('// Skeleton: write the body of describeOrder');
    expect(unknown.code).toContain(
      'export function describeOrder(_order: Order, _note: string | undefined, _count: number): string {',
    );
  });
});

describe('the built-in generator on descriptions nobody would write', () => {
  it('still writes code that type-checks', () => {
    // A fixed-seed mix of grammar words, types, punctuation and junk.
    let seed = 11;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pieces = [
      'with',
      'and',
      ',',
      'name:',
      'age?:',
      'string',
      'number',
      'int',
      'Date',
      'uuid',
      'email',
      'url',
      'Item',
      'Item[]',
      "'a'",
      '|',
      "'b'",
      '>=',
      '0',
      '(1..5)',
      'boolean',
      'onSelect',
      'callback',
      'a',
      'the',
      'called',
      'returning',
      'function',
      'sum',
      'sort',
      'by',
      'filter',
      'slugify',
      'class',
      'default',
      '(',
      ')',
      '=>',
      'void',
      'list',
      'of',
      'null',
      '*/',
      '${x}',
      '`',
      '\\',
      '漢字',
      '🎉',
      '2nd',
      'key',
      'ref',
      'value',
      'body',
      'id:',
    ];
    const files: GeneratedFile[] = [];
    for (let n = 0; n < 40; n++) {
      const text = Array.from(
        { length: 1 + Math.floor(random() * 20) },
        () => pieces[Math.floor(random() * pieces.length)]!,
      ).join(' ');
      for (const kind of CODE_KINDS) {
        const { result } = generateFromTemplate(kind, text);
        files.push({
          fileName: `fuzz-${n}-${kind}-${result.fileName}`,
          code: `// ${JSON.stringify(text)}\n${result.code}`,
        });
      }
    }
    const found = checkGenerated(files);
    const failures = files
      .filter((f) => found.get(f.fileName)!.length > 0)
      .map((f) => ({ code: f.code, errors: found.get(f.fileName) }));
    expect(failures).toEqual([]);
  }, 120_000);
});

// ------------------------------------------------------------------------------------------------
// The generated code at work: transpiled, imported and run.

const here = path.dirname(fileURLToPath(import.meta.url));
const daemonRoot = path.resolve(here, '../../..');
const webRoot = path.resolve(daemonRoot, '../web');
const scratch: string[] = [];

/**
 * Import generated TypeScript: transpiled to JavaScript in a scratch folder inside `root`, so its
 * imports (express, zod, react) resolve from that package's node_modules.
 */
async function load(result: GenerateResult, root: string): Promise<Record<string, unknown>> {
  const dir = fs.mkdtempSync(path.join(root, '.codegen-test-'));
  scratch.push(dir);
  const js = ts.transpileModule(result.code, {
    fileName: result.fileName,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      jsx: ts.JsxEmit.ReactJSX,
    },
  }).outputText;
  const file = path.join(dir, result.fileName.replace(/\.(tsx?|jsx?)$/, '.mjs'));
  fs.writeFileSync(file, js);
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

afterAll(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

type Fn = (...args: unknown[]) => unknown;
const fn = async (description: string, language: Language = 'typescript'): Promise<Fn> => {
  const { result } = generateFromTemplate('function', description, language);
  return (await load(result, daemonRoot))[result.name] as Fn;
};

describe('generated code at work', () => {
  it('functions do what their names say', async () => {
    const slugify = await fn(DESCRIPTIONS.function[0]!);
    expect(slugify('  Héllo, Wörld! Ça va?  ')).toBe('hello-world-ca-va');
    expect(slugify('Hello big world', 9)).toBe('hello-big');
    expect(await fn(DESCRIPTIONS.function[0]!, 'javascript').then((f) => f('A B'))).toBe('a-b');

    const sumPrices = await fn(DESCRIPTIONS.function[1]!);
    expect(sumPrices([{ price: 2.5 }, { price: 4 }])).toBe(6.5);
    const isValidEmail = await fn(DESCRIPTIONS.function[2]!);
    expect([isValidEmail('ada@example.com'), isValidEmail('ada@'), isValidEmail('no at.com')]).toEqual([
      true,
      false,
      false,
    ]);
    const sortByAge = await fn(DESCRIPTIONS.function[3]!);
    const people = [{ age: 30 }, { age: 50 }, { age: 10 }];
    expect(sortByAge(people)).toEqual([{ age: 50 }, { age: 30 }, { age: 10 }]);
    expect(people[0]).toEqual({ age: 30 });
    const filterActive = await fn(DESCRIPTIONS.function[4]!);
    expect(
      filterActive([
        { n: 1, active: true },
        { n: 2, active: false },
      ]),
    ).toEqual([{ n: 1, active: true }]);
    const formatPrice = await fn(DESCRIPTIONS.function[5]!);
    expect(formatPrice(1234.5)).toBe('$1,234.50');
    expect(formatPrice(3, 'EUR')).toBe('€3.00');
    const clamp = await fn('clamp');
    expect([clamp(5, 0, 3), clamp(-1, 0, 3), clamp(2, 0, 3)]).toEqual([3, 0, 2]);
    expect((await fn('function truncate(text: string, max: number)'))('abcdefgh', 5)).toBe('abcd…');
    expect((await fn('function unique(values: number[])'))([3, 1, 3, 2, 1])).toEqual([3, 1, 2]);
    expect((await fn('average of scores: number[]'))([2, 4, 9])).toBe(5);
    expect((await fn('count words in text: string'))(' one two  three ')).toBe(3);
    // Unknown intent: a skeleton, which throws rather than guess.
    const merge = await fn(DESCRIPTIONS.function[8]!);
    expect(() => merge([{ a: 1 }], [{ b: 2 }])).toThrow(/merge is a skeleton/);
  });

  it('the API validates, creates, reads, updates and deletes', async () => {
    for (const language of LANGUAGES) {
      const { result } = generateFromTemplate(
        'api',
        "an api for todos with title: string(1..20), done: boolean, priority?: int between 1 and 3, due?: date, status: 'open' | 'closed'",
        language,
      );
      const router = (await load(result, daemonRoot)).todosRouter as Router;
      const app = express();
      app.use('/api/todos', express.json(), router);
      const server = http.createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/todos`;
      const send = async (method: string, url: string, body?: unknown) => {
        const res = await fetch(url, {
          method,
          headers: { 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return {
          status: res.status,
          body: res.status === 204 ? null : ((await res.json()) as Record<string, unknown>),
        };
      };
      try {
        const refused = await send('POST', base, { title: '', done: 'yes', priority: 7, status: 'maybe' });
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual({
          errors: [
            'title must have at least 1 character.',
            'done must be true or false.',
            'priority must be at most 3.',
            'status must be one of open, closed.',
          ],
        });
        expect((await send('POST', base, [])).body).toEqual({ errors: ['Send a JSON object.'] });

        const created = await send('POST', base, {
          title: 'Write docs',
          done: false,
          due: '2025-03-01',
          status: 'open',
        });
        expect(created).toEqual({
          status: 201,
          body: {
            id: '1',
            title: 'Write docs',
            done: false,
            due: '2025-03-01T00:00:00.000Z',
            status: 'open',
          },
        });
        expect((await send('GET', base)).body).toEqual([created.body]);
        expect((await send('GET', `${base}/1`)).body).toEqual(created.body);
        const patched = await send('PATCH', `${base}/1`, { done: true });
        expect(patched.body).toMatchObject({ id: '1', title: 'Write docs', done: true });
        expect((await send('PATCH', `${base}/1`, { done: 1 })).status).toBe(400);
        expect((await send('DELETE', `${base}/1`)).status).toBe(204);
        expect(await send('GET', `${base}/1`)).toEqual({
          status: 404,
          body: { error: 'No todo with id 1.' },
        });
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });

  it('the schema parses good data and refuses bad data', async () => {
    for (const language of LANGUAGES) {
      const { result } = generateFromTemplate('schema', DESCRIPTIONS.schema[0]!, language);
      const mod = await load(result, daemonRoot);
      const schema = mod.ProductSchema as { safeParse(v: unknown): { success: boolean } };
      const good = { id: '3f1c2a8e-4b6d-4e8a-9c2f-1a2b3c4d5e6f', name: 'Lamp', price: 12, tags: ['home'] };
      expect(schema.safeParse(good).success).toBe(true);
      expect(schema.safeParse({ ...good, id: 'nope' }).success).toBe(false);
      expect(schema.safeParse({ ...good, name: 'x'.repeat(81) }).success).toBe(false);
      expect(schema.safeParse({ ...good, price: -1 }).success).toBe(false);
      const create = mod.NewProductSchema as { safeParse(v: unknown): { success: boolean } };
      expect(create.safeParse({ name: 'Lamp', price: 0, tags: [] }).success).toBe(true);
    }
  });

  it('the component renders its props', async () => {
    const requireWeb = createRequire(path.join(webRoot, 'package.json'));
    // React is @forge/web's: the daemon has no React of its own.
    const { createElement } = requireWeb('react') as {
      createElement: (type: unknown, props: Record<string, unknown>) => unknown;
    };
    const { renderToStaticMarkup } = requireWeb('react-dom/server') as {
      renderToStaticMarkup: (element: unknown) => string;
    };
    const { result } = generateFromTemplate('component', DESCRIPTIONS.component[1]!);
    const ProductTile = (await load(result, webRoot)).ProductTile;
    const html = renderToStaticMarkup(
      createElement(ProductTile, {
        title: 'Lamp',
        price: 12,
        tags: ['home', 'light'],
        createdAt: new Date('2025-01-02T12:00:00Z'),
        contact: 'ada@example.com',
        status: 'new',
        onBuy: () => undefined,
        id: 'p1',
        quantity: 2,
      }),
    );
    expect(html).toContain('<section class="product-tile"><h2>Lamp</h2>');
    expect(html).toContain('<dt>Price</dt><dd>12</dd>');
    expect(html).toContain('<li>home</li><li>light</li>');
    expect(html).toContain('<dd><a href="mailto:ada@example.com">ada@example.com</a></dd>');
    // The optional website was not given: no row for it.
    expect(html).not.toContain('Website');
    expect(html).toContain('<button type="button">Buy</button>');
  });
});
