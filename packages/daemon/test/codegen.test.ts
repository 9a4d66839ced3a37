import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBody, GenerateResult, routes } from '@forge/shared';
import type { ModelClient, ModelRequest } from '../src/capabilities/model/types.ts';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';

afterEach(cleanup);

const post = async (app: TestApp, body: unknown) => {
  const res = await fetch(`${app.url}/api/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
};

describe('POST /api/generate', () => {
  it('answers every kind from the built-in generator', async () => {
    const app = await startTestApp();
    const cases = [
      [
        'component',
        'a UserCard component with name: string and an onSelect callback',
        'UserCard',
        'UserCard.tsx',
      ],
      ['api', 'an api for todos with title: string, done: boolean', 'todosRouter', 'todos.ts'],
      ['function', 'function slugify(text: string): string', 'slugify', 'slugify.ts'],
      ['schema', 'a schema Product with id: uuid, price: number >= 0', 'ProductSchema', 'Product.ts'],
    ] as const;
    for (const [kind, description, name, fileName] of cases) {
      const { status, body } = await post(app, { kind, description });
      expect(status, kind).toBe(200);
      const result = GenerateResult.parse(body);
      expect(result).toMatchObject({
        language: 'typescript',
        source: 'template',
        kind: 'implemented',
        name,
        fileName,
      });
      expect(result.code).toContain(name);
    }
    const js = GenerateResult.parse(
      (await post(app, { kind: 'component', description: 'a Badge', language: 'javascript' })).body,
    );
    expect(js).toMatchObject({ language: 'javascript', fileName: 'Badge.jsx' });
  });

  it('refuses an unknown kind or an empty description with 400 VALIDATION_FAILED', async () => {
    const app = await startTestApp();
    for (const body of [
      { kind: 'widget', description: 'a card' },
      { kind: 'component', description: '   ' },
      { kind: 'component' },
      { kind: 'schema', description: 'x', language: 'python' },
    ]) {
      const answer = await post(app, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(ErrorBody.parse(answer.body).code).toBe('VALIDATION_FAILED');
    }
  });

  it("is CodeGenBot's job: its card says what it last wrote", async () => {
    const app = await startTestApp();
    await post(app, { kind: 'schema', description: 'a schema Product with name: string' });
    const bots = routes.bots.response.parse(await (await fetch(`${app.url}/api/bots`)).json());
    const bot = bots.find((b) => b.name === 'CodeGenBot')!;
    expect(bot.lastJob).toMatchObject({
      label: 'generate schema ProductSchema',
      ok: true,
      summary: 'wrote Product.ts (built-in template)',
    });
    expect(bot.jobsRun).toBe(1);
  });

  it('uses the configured model, and the template when its code does not parse', async () => {
    const app = await startTestApp();
    const asked: ModelRequest[] = [];
    let answer =
      '```ts\nexport function slugify(text: string): string {\n  return text.toLowerCase().split(" ").join("-");\n}\n```';
    const model: ModelClient = {
      model: 'fixed',
      url: 'http://127.0.0.1:9/v1',
      complete: async (request) => {
        asked.push(request);
        return answer;
      },
    };
    app.forge.services.model = model;
    const fromModel = GenerateResult.parse(
      (await post(app, { kind: 'function', description: 'slugify a title' })).body,
    );
    expect(fromModel).toMatchObject({ source: 'model', name: 'slugify', fileName: 'slugify.ts' });
    expect(fromModel.code).toContain('split(" ").join("-")');
    expect(asked[0]!.messages[1]!.content).toContain('slugify a title');

    answer = 'export function slugify(text: string: string {';
    const fallback = GenerateResult.parse(
      (await post(app, { kind: 'function', description: 'slugify a title' })).body,
    );
    expect(fallback.source).toBe('template');
    expect(fallback.code).toContain(".normalize('NFKD')");
    expect(app.logLines().some((l) => l.level === 40 && String(l.reason).includes('does not parse'))).toBe(
      true,
    );

    // A cart total that adds quantity and price parses and type-checks, but computes the wrong
    // thing: the built-in answer stands, and says why.
    answer = [
      'export function cartTotal(items: readonly { price: number; quantity: number }[], discountPercent = 0): number {',
      '  return items.reduce((s, i) => s + i.price + i.quantity, 0) - discountPercent;',
      '}',
    ].join('\n');
    const cart = GenerateResult.parse(
      (
        await post(app, {
          kind: 'function',
          description:
            'calculate the total price of cart items with quantity and price, applying a discount percent',
        })
      ).body,
    );
    expect(cart).toMatchObject({ source: 'template', kind: 'implemented', name: 'cartTotal' });
    expect(cart.reason).toMatch(
      /the model's answer was not taken: the model's code is wrong: it fails the example/,
    );
    expect(cart.code).toContain('item.price * item.quantity');
  });
});
