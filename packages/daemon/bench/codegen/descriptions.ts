/**
 * The code generator's benchmark: descriptions as developers write them, each with what a right
 * answer must do. An `implemented` case's code is run against examples drawn from its description
 * (fast-check properties where one is known); a component is rendered and its described elements
 * are found by role. A `skeleton` case is one the catalogue cannot do: the right answer is a
 * skeleton that says so (a function that throws rather than computes). A case answered as
 * implemented whose checks fail, or that should have been a skeleton, is WRONG.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CodeKind, GenerateResult } from '@forge/shared';
import { checkGenerated } from '../../src/features/codegen/type-check.ts';
import { browser, render, renderHook, serve, sleep } from './harness.ts';

/** A type is proven by the compiler: `good` uses of it compile, each of `bad` does not. */
function checkType(result: GenerateResult, good: string, bad: string[]): void {
  const files = [
    { fileName: `types-${result.fileName}`, code: result.code },
    {
      fileName: 'use-good.ts',
      code: `import type { ${result.name} } from './types-${result.name}';\n${good}\n`,
    },
    ...bad.map((b, i) => ({
      fileName: `use-bad-${i}.ts`,
      code: `import type { ${result.name} } from './types-${result.name}';\n${b}\n`,
    })),
  ];
  const diagnostics = checkGenerated(files, { noUnusedLocals: false });
  assert.deepEqual(diagnostics.get('use-good.ts'), [], 'a value of the type compiles');
  bad.forEach((b, i) => assert.notDeepEqual(diagnostics.get(`use-bad-${i}.ts`), [], `refused: ${b}`));
}

export interface CheckContext {
  result: GenerateResult;
  mod: Record<string, unknown>;
  /** The generated export named by the result. */
  main: unknown;
}

export interface Case {
  kind: CodeKind;
  description: string;
  expect: 'implemented' | 'skeleton';
  /** Throws when the code does not do what the description says. */
  check?: (ctx: CheckContext) => Promise<void> | void;
  /** Small enough and fast enough for CI. */
  ci?: boolean;
}

type Fn = (...args: never[]) => unknown;
const call = (f: unknown, ...args: unknown[]): unknown => (f as (...a: unknown[]) => unknown)(...args);
const money = fc.integer({ min: 0, max: 100_000 }).map((c) => c / 100);
const round2 = (n: number) => Math.round(n * 100) / 100;

async function checkCart(main: unknown, withDiscount: boolean, withTax: boolean): Promise<void> {
  const items = [
    { price: 10, quantity: 3 },
    { price: 2.5, quantity: 2 },
  ];
  assert.equal(call(main, items), 35);
  if (withDiscount) assert.equal(call(main, items, 10), 31.5);
  fc.assert(
    fc.property(
      fc.array(fc.record({ price: money, quantity: fc.integer({ min: 0, max: 50 }) }), { maxLength: 8 }),
      fc.integer({ min: 0, max: 100 }),
      (list, percent) => {
        const sum = list.reduce((s, i) => s + i.price * i.quantity, 0);
        if (withDiscount && !withTax)
          assert.ok(
            Math.abs((call(main, list, percent) as number) - round2(sum * (1 - percent / 100))) < 0.011,
          );
        if (withTax && !withDiscount)
          assert.ok(
            Math.abs((call(main, list, percent) as number) - round2(sum * (1 + percent / 100))) < 0.011,
          );
        if (!withTax && !withDiscount)
          assert.ok(Math.abs((call(main, list) as number) - round2(sum)) < 0.011);
      },
    ),
  );
}

async function checkDebounce(main: unknown): Promise<void> {
  const calls: unknown[][] = [];
  const debounced = call(main, (...args: unknown[]) => calls.push(args), 40) as ((
    ...a: unknown[]
  ) => void) & {
    cancel?: () => void;
  };
  debounced(1);
  debounced(2);
  debounced(3);
  assert.equal(calls.length, 0, 'nothing is called before the delay');
  await sleep(150);
  assert.deepEqual(calls, [[3]], 'called once, with the last arguments, after the delay');
  debounced(4);
  debounced.cancel?.();
  await sleep(80);
  assert.equal(calls.length, 1, 'a cancelled call is dropped');
}

async function checkThrottle(main: unknown): Promise<void> {
  const calls: unknown[] = [];
  const throttled = call(main, (x: unknown) => calls.push(x), 60) as (x: unknown) => void;
  for (let i = 1; i <= 5; i++) throttled(i);
  assert.deepEqual(calls, [1], 'the first call runs at once, the others wait');
  await sleep(200);
  assert.deepEqual(calls, [1, 5], 'one trailing call with the latest arguments');
}

const users = [
  { id: 1, name: 'Ada', email: 'ada@example.com', role: 'admin' },
  { id: 2, name: 'Grace', email: 'grace@example.com', role: 'user' },
  { id: 3, name: 'Linus', email: 'linus@example.com', role: 'user' },
];

async function checkLoginForm(main: unknown): Promise<void> {
  const submitted: unknown[] = [];
  const r = await render(main, { onSubmit: (v: unknown) => submitted.push(v) });
  const form = r.q.getByRole('form', { name: /log ?in|sign ?in/i });
  const email = r.q.getByRole('textbox', { name: /email/i });
  assert.equal(email.type, 'email');
  const password = r.q.getByLabelText(/password/i);
  assert.equal(password.type, 'password', 'the password is never shown in clear');
  const submit = r.q.getByRole('button', { name: /log ?in|sign ?in/i });
  assert.equal(submit.type, 'submit');
  await r.fire('submit', form);
  assert.equal(submitted.length, 0, 'an empty form is not submitted');
  assert.match(r.container.textContent ?? '', /required/i);
  await r.type(email, 'not-an-email');
  await r.type(password, 'secret');
  await r.fire('submit', form);
  assert.equal(submitted.length, 0, 'an invalid email is not submitted');
  await r.type(email, 'ada@example.com');
  await r.fire('submit', form);
  assert.deepEqual(submitted, [{ email: 'ada@example.com', password: 'secret' }]);
  await r.unmount();
}

async function checkTable(
  main: unknown,
  rowsProp: string,
  rows: Array<Record<string, unknown>>,
  expectHeaders: RegExp[],
): Promise<Awaited<ReturnType<typeof render>>> {
  const selected: unknown[] = [];
  const r = await render(main, { [rowsProp]: rows, onSelect: (row: unknown) => selected.push(row) });
  r.q.getByRole('table');
  const headers = r.q.getAllByRole('columnheader').map((h) => h.textContent ?? '');
  for (const h of expectHeaders)
    assert.ok(
      headers.some((t) => h.test(t)),
      `a column ${h} in ${headers.join(', ')}`,
    );
  return r;
}

export const CASES: Case[] = [
  // ---------------------------------------------------------------------------------- functions
  {
    kind: 'function',
    description:
      'calculate the total price of cart items with quantity and price, applying a discount percent',
    expect: 'implemented',
    ci: true,
    check: ({ main }) => checkCart(main, true, false),
  },
  {
    kind: 'function',
    description: 'the cart total of items with quantity and price, plus a tax percent',
    expect: 'implemented',
    check: ({ main }) => checkCart(main, false, true),
  },
  {
    kind: 'function',
    description: 'sum price times quantity over the items of a shopping basket',
    expect: 'implemented',
    check: ({ main }) => checkCart(main, false, false),
  },
  {
    kind: 'function',
    description: 'debounce a function by a delay in milliseconds',
    expect: 'implemented',
    ci: true,
    check: ({ main }) => checkDebounce(main),
  },
  {
    kind: 'function',
    description: 'a debounced callback that waits until the calls stop',
    expect: 'implemented',
    check: ({ main }) => checkDebounce(main),
  },
  {
    kind: 'function',
    description: 'throttle a function to at most one call per interval',
    expect: 'implemented',
    check: ({ main }) => checkThrottle(main),
  },
  {
    kind: 'function',
    description: 'retry an async operation with exponential backoff',
    expect: 'implemented',
    ci: true,
    async check({ main }) {
      let attempts = 0;
      const value = await (call(
        main,
        async () => {
          attempts++;
          if (attempts < 3) throw new Error('flaky');
          return 'ok';
        },
        { retries: 3, baseDelayMs: 1 },
      ) as Promise<string>);
      assert.equal(value, 'ok');
      assert.equal(attempts, 3);
      let tries = 0;
      await assert.rejects(
        call(
          main,
          async () => {
            tries++;
            throw new Error('down');
          },
          { retries: 2, baseDelayMs: 1 },
        ) as Promise<unknown>,
        /down/,
      );
      assert.equal(tries, 3, 'the first attempt and two retries');
    },
  },
  {
    kind: 'function',
    description: 'memoize an expensive function',
    expect: 'implemented',
    check({ main }) {
      let runs = 0;
      const slow = (a: number, b: number) => {
        runs++;
        return a * b;
      };
      const fast = call(main, slow) as (a: number, b: number) => number;
      fc.assert(fc.property(fc.integer(), fc.integer(), (a, b) => fast(a, b) === a * b));
      const before = runs;
      fast(1e9, 7);
      fast(1e9, 7);
      assert.equal(runs, before + 1, 'each argument list computed once');
    },
  },
  {
    kind: 'function',
    description: 'cache the results of a pure function by its arguments',
    expect: 'implemented',
    check({ main }) {
      let runs = 0;
      const f = call(main, (n: number) => (runs++, n + 1)) as (n: number) => number;
      assert.equal(f(1), 2);
      assert.equal(f(1), 2);
      assert.equal(runs, 1);
    },
  },
  {
    kind: 'function',
    description: 'group records by a key',
    expect: 'implemented',
    check({ main }) {
      fc.assert(
        fc.property(fc.array(fc.record({ k: fc.constantFrom('a', 'b', 'c'), v: fc.integer() })), (items) => {
          const groups = call(main, items, 'k') as Record<string, Array<{ k: string }>>;
          assert.equal(Object.values(groups).flat().length, items.length);
          for (const [key, list] of Object.entries(groups)) assert.ok(list.every((i) => i.k === key));
        }),
      );
    },
  },
  {
    kind: 'function',
    description: 'group orders by status',
    expect: 'implemented',
    check({ main }) {
      const orders = [
        { id: 1, status: 'paid' },
        { id: 2, status: 'open' },
        { id: 3, status: 'paid' },
      ];
      assert.deepEqual(call(main, orders, 'status'), { paid: [orders[0], orders[2]], open: [orders[1]] });
      assert.deepEqual(Object.keys(call(main, orders, (o: { id: number }) => o.id % 2) as object).sort(), [
        '0',
        '1',
      ]);
    },
  },
  {
    kind: 'function',
    description: 'sort records by a property, ascending or descending',
    expect: 'implemented',
    check({ main }) {
      fc.assert(
        fc.property(
          fc.array(fc.record({ n: fc.integer() })),
          fc.constantFrom('asc', 'desc'),
          (items, dir) => {
            const before = JSON.stringify(items);
            const sorted = call(main, items, 'n', dir) as Array<{ n: number }>;
            assert.equal(JSON.stringify(items), before, 'the input is not changed');
            assert.deepEqual(
              sorted.map((i) => i.n),
              items.map((i) => i.n).sort((a, b) => (dir === 'asc' ? a - b : b - a)),
            );
          },
        ),
      );
    },
  },
  {
    kind: 'function',
    description: 'sum a numeric property over a list of records',
    expect: 'implemented',
    check({ main }) {
      fc.assert(
        fc.property(fc.array(fc.record({ amount: fc.integer({ min: -1000, max: 1000 }) })), (items) => {
          assert.equal(
            call(main, items, 'amount'),
            items.reduce((s, i) => s + i.amount, 0),
          );
        }),
      );
    },
  },
  {
    kind: 'function',
    description: 'the average of a numeric property over records',
    expect: 'implemented',
    check({ main }) {
      assert.equal(call(main, [{ score: 2 }, { score: 4 }, { score: 9 }], 'score'), 5);
      assert.ok(Number.isNaN(call(main, [], 'score')), 'no average of nothing');
    },
  },
  {
    kind: 'function',
    description: 'format a date for a locale',
    expect: 'implemented',
    ci: true,
    check({ main }) {
      assert.equal(call(main, new Date('2024-03-05T12:00:00Z'), 'en-US'), 'Mar 5, 2024');
      assert.equal(call(main, '2024-03-05T12:00:00Z', 'en-GB'), '5 Mar 2024');
      assert.throws(() => call(main, 'not a date'), RangeError);
    },
  },
  {
    kind: 'function',
    description: 'format a number as currency in a given locale',
    expect: 'implemented',
    check({ main }) {
      assert.equal(call(main, 1234.5), '$1,234.50');
      assert.equal(call(main, 1234.5, 'EUR', 'de-DE'), '1.234,50\u00a0€');
    },
  },
  {
    kind: 'function',
    description: 'format a price as money',
    expect: 'implemented',
    check({ main }) {
      assert.equal(call(main, 1234.5), '$1,234.50');
    },
  },
  {
    kind: 'function',
    description: 'check the strength of a password',
    expect: 'implemented',
    ci: true,
    check({ main }) {
      const weak = call(main, 'abc') as { score: number; label: string; missing: string[] };
      assert.equal(weak.label, 'weak');
      assert.ok(weak.missing.length > 0);
      const strong = call(main, 'Tr0ub4dor&3xYz') as { score: number; label: string };
      assert.deepEqual([strong.score, strong.label], [4, 'strong']);
      fc.assert(
        fc.property(fc.string(), (p) => {
          const s = call(main, p) as { score: number };
          assert.ok(s.score >= 0 && s.score <= 4);
          if (p.length < 8) assert.ok(s.score <= 1, 'under 8 characters is weak');
        }),
      );
    },
  },
  {
    kind: 'function',
    description: 'deep clone an object',
    expect: 'implemented',
    check({ main }) {
      const value = { a: { b: [1, 2, { c: 3 }] }, when: new Date(0), tags: new Set(['x']) };
      const copy = call(main, value) as typeof value;
      assert.deepEqual(copy, value);
      assert.notEqual(copy.a, value.a);
      assert.notEqual(copy.a.b, value.a.b);
      assert.ok(copy.when instanceof Date);
    },
  },
  {
    kind: 'function',
    description: 'deep merge two objects',
    expect: 'implemented',
    check({ main }) {
      const target = { a: { b: 1 }, list: [1], keep: true };
      const merged = call(main, target, { a: { c: 2 }, list: [2] });
      assert.deepEqual(merged, { a: { b: 1, c: 2 }, list: [2], keep: true });
      assert.deepEqual(target, { a: { b: 1 }, list: [1], keep: true }, 'the inputs are not changed');
      const evil = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
      call(main, {}, evil);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    },
  },
  {
    kind: 'function',
    description: 'split an array into chunks of a given size',
    expect: 'implemented',
    check({ main }) {
      fc.assert(
        fc.property(fc.array(fc.integer()), fc.integer({ min: 1, max: 10 }), (items, size) => {
          const chunks = call(main, items, size) as number[][];
          assert.deepEqual(chunks.flat(), items);
          chunks.slice(0, -1).forEach((c) => assert.equal(c.length, size));
          if (chunks.length > 0) assert.ok(chunks.at(-1)!.length <= size && chunks.at(-1)!.length > 0);
        }),
      );
      assert.throws(() => call(main, [1], 0), RangeError);
    },
  },
  {
    kind: 'function',
    description: 'slugify a title for a URL',
    expect: 'implemented',
    ci: true,
    check({ main }) {
      assert.equal(call(main, 'Hello, World!'), 'hello-world');
      assert.equal(call(main, 'Crème Brûlée'), 'creme-brulee');
      fc.assert(
        fc.property(fc.string(), (s) => assert.match(call(main, s) as string, /^([a-z0-9]+(-[a-z0-9]+)*)?$/)),
      );
    },
  },
  {
    kind: 'function',
    description: 'validate an email address',
    expect: 'implemented',
    check({ main }) {
      assert.equal(call(main, 'ada@example.com'), true);
      assert.equal(call(main, 'nope'), false);
      assert.equal(call(main, 'a@b'), false);
    },
  },
  {
    kind: 'function',
    description: 'check whether a string is a valid URL',
    expect: 'implemented',
    check({ main }) {
      assert.equal(call(main, 'https://example.org/a?b=c'), true);
      assert.equal(call(main, 'example'), false);
      assert.equal(call(main, 'javascript:alert(1)'), false);
    },
  },
  {
    kind: 'function',
    description: 'unique values of items: string[]',
    expect: 'implemented',
    check({ main }) {
      fc.assert(
        fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd')), (items) => {
          const out = call(main, items) as string[];
          assert.equal(new Set(out).size, out.length);
          assert.deepEqual(new Set(out), new Set(items));
        }),
      );
    },
  },
  {
    kind: 'function',
    description: 'capitalize the first letter of text: string',
    expect: 'implemented',
    check({ main }) {
      assert.equal(call(main, 'hello world'), 'Hello world');
    },
  },
  {
    kind: 'function',
    description: 'clamp a number between min and max',
    expect: 'implemented',
    check({ main }) {
      fc.assert(
        fc.property(fc.integer(), fc.integer(), fc.integer(), (v, a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          assert.equal(call(main, v, lo, hi), Math.min(Math.max(v, lo), hi));
        }),
      );
    },
  },
  {
    kind: 'function',
    description: 'sumPrices(items: Item[]): number',
    expect: 'implemented',
    check({ main }) {
      assert.equal(call(main, [{ price: 2 }, { price: 3.5 }]), 5.5);
    },
  },
  {
    kind: 'function',
    description: 'sum of numbers in an array',
    expect: 'implemented',
    check({ main }) {
      assert.equal(call(main, [1, 2, 3.5]), 6.5);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: -1e6, max: 1e6 })), (values) => {
          assert.equal(
            call(main, values),
            values.reduce((s, v) => s + v, 0),
          );
        }),
      );
    },
  },
  {
    kind: 'function',
    description: 'the average of values: number[]',
    expect: 'implemented',
    check({ main }) {
      assert.equal(call(main, [1, 2, 3, 6]), 3);
    },
  },
  {
    kind: 'function',
    description: 'return the largest number in a list',
    expect: 'implemented',
    check({ main }) {
      fc.assert(
        fc.property(fc.array(fc.integer(), { minLength: 1 }), (values) => {
          assert.equal(call(main, values), Math.max(...values));
        }),
      );
    },
  },
  {
    kind: 'function',
    description: 'check if a number is prime',
    expect: 'implemented',
    check({ main }) {
      const naive = (n: number) =>
        n > 1 && Array.from({ length: n - 2 }, (_, i) => i + 2).every((d) => n % d !== 0);
      for (let n = -3; n < 600; n++) assert.equal(call(main, n), naive(n), String(n));
      assert.equal(call(main, 7.5), false);
    },
  },
  {
    kind: 'function',
    description: 'convert celsius to fahrenheit',
    expect: 'implemented',
    check({ main }) {
      assert.equal(call(main, 100), 212);
      assert.equal(call(main, -40), -40);
      fc.assert(
        fc.property(
          fc.integer({ min: -500, max: 500 }),
          (c) => Math.abs((call(main, c) as number) - (c * 1.8 + 32)) < 1e-9,
        ),
      );
    },
  },
  {
    kind: 'function',
    description: 'convert a temperature from fahrenheit to celsius',
    expect: 'implemented',
    check({ main }) {
      assert.equal(call(main, 212), 100);
      assert.equal(call(main, 32), 0);
    },
  },
  // -------------------------------------------------------------------------------------- hooks
  {
    kind: 'function',
    description: 'a useDebounce hook for a search input',
    expect: 'implemented',
    ci: true,
    async check({ main }) {
      const h = await renderHook(main as Fn, ['a', 40]);
      assert.equal(h.read(), 'a');
      await h.rerender(['ab', 40]);
      await h.rerender(['abc', 40]);
      assert.equal(h.read(), 'a', 'unchanged while the input changes');
      await h.act(() => sleep(150));
      assert.equal(h.read(), 'abc', 'the latest value once it is still');
      await h.unmount();
    },
  },
  {
    kind: 'function',
    description: 'a useFetch hook that aborts the request when the url changes',
    expect: 'implemented',
    async check({ main }) {
      const signals: AbortSignal[] = [];
      const realFetch = globalThis.fetch;
      globalThis.fetch = (async (url: string, init?: RequestInit) => {
        signals.push(init!.signal!);
        await sleep(20);
        return new Response(JSON.stringify({ url }), { status: url.includes('missing') ? 404 : 200 });
      }) as typeof fetch;
      try {
        const h = await renderHook(main as Fn, ['/a']);
        assert.equal((h.read() as { loading: boolean }).loading, true);
        await h.rerender(['/b']);
        assert.equal(signals[0]!.aborted, true, 'the first request is aborted');
        await h.act(() => sleep(80));
        assert.deepEqual((h.read() as { data: unknown }).data, { url: '/b' });
        await h.rerender(['/missing']);
        await h.act(() => sleep(80));
        assert.match(String((h.read() as { error?: Error }).error?.message), /404/);
        await h.unmount();
      } finally {
        globalThis.fetch = realFetch;
      }
    },
  },
  {
    kind: 'function',
    description: 'a hook that persists state in localStorage',
    expect: 'implemented',
    async check({ main }) {
      browser().localStorage.clear();
      const h = await renderHook(main as Fn, ['theme', 'light']);
      assert.equal((h.read() as [string])[0], 'light');
      await h.act(() => (h.read() as [string, (v: string) => void])[1]('dark'));
      assert.equal((h.read() as [string])[0], 'dark');
      assert.equal(browser().localStorage.getItem('theme'), '"dark"');
      await h.unmount();
      const again = await renderHook(main as Fn, ['theme', 'light']);
      assert.equal((again.read() as [string])[0], 'dark', 'it survives a reload');
      await again.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a useInterval hook',
    expect: 'implemented',
    async check({ main }) {
      let ticks = 0;
      const h = await renderHook(main as Fn, [() => ticks++, 15]);
      await h.act(() => sleep(120));
      assert.ok(ticks >= 2, `ticked ${ticks} times`);
      await h.rerender([() => ticks++, null]);
      const paused = ticks;
      await h.act(() => sleep(60));
      assert.equal(ticks, paused, 'a null delay pauses it');
      await h.unmount();
    },
  },
  // --------------------------------------------------------------------------------- components
  {
    kind: 'component',
    description: 'a login form with email and password',
    expect: 'implemented',
    ci: true,
    check: ({ main }) => checkLoginForm(main),
  },
  {
    kind: 'component',
    description: 'a sign in form',
    expect: 'implemented',
    check: ({ main }) => checkLoginForm(main),
  },
  {
    kind: 'component',
    description: 'a signup form with name, email, password and confirm password',
    expect: 'implemented',
    async check({ main }) {
      const submitted: unknown[] = [];
      const r = await render(main, { onSubmit: (v: unknown) => submitted.push(v) });
      const form = r.q.getByRole('form');
      await r.type(r.q.getByRole('textbox', { name: /^name/i }), 'Ada');
      await r.type(r.q.getByRole('textbox', { name: /email/i }), 'ada@example.com');
      const [password, confirm] = [r.q.getByLabelText(/^password/i), r.q.getByLabelText(/confirm/i)];
      assert.equal(password.type, 'password');
      assert.equal(confirm.type, 'password');
      await r.type(password, 'longenough1');
      await r.type(confirm, 'different1');
      await r.fire('submit', form);
      assert.equal(submitted.length, 0);
      assert.match(r.container.textContent ?? '', /does not match/);
      await r.type(confirm, 'longenough1');
      await r.fire('submit', form);
      assert.equal(submitted.length, 1);
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a contact form with name, email and message',
    expect: 'implemented',
    async check({ main }) {
      const submitted: unknown[] = [];
      const r = await render(main, { onSubmit: (v: unknown) => submitted.push(v) });
      const message = r.q.getByRole('textbox', { name: /message/i });
      assert.equal(message.tagName, 'TEXTAREA');
      await r.type(r.q.getByRole('textbox', { name: /^name/i }), 'Ada');
      await r.type(r.q.getByRole('textbox', { name: /email/i }), 'ada@example.com');
      await r.type(message, 'Hello');
      await r.fire('click', r.q.getByRole('button', { name: /send/i }));
      assert.deepEqual(submitted, [{ name: 'Ada', email: 'ada@example.com', message: 'Hello' }]);
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a search bar with a submit button',
    expect: 'implemented',
    async check({ main }) {
      const submitted: unknown[] = [];
      const r = await render(main, { onSubmit: (v: unknown) => submitted.push(v) });
      await r.type(r.q.getByRole('searchbox'), 'react hooks');
      await r.fire('click', r.q.getByRole('button', { name: /search/i }));
      assert.deepEqual(submitted, [{ query: 'react hooks' }]);
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a form with title: string, price: number >= 0 and published: boolean',
    expect: 'implemented',
    async check({ main }) {
      const submitted: unknown[] = [];
      const r = await render(main, { onSubmit: (v: unknown) => submitted.push(v) });
      await r.type(r.q.getByRole('textbox', { name: /title/i }), 'Lamp');
      const price = r.q.getByRole('spinbutton', { name: /price/i });
      await r.type(price, '-1');
      await r.fire('submit', r.q.getByRole('form'));
      assert.equal(submitted.length, 0, 'a negative price is refused');
      await r.type(price, '12.5');
      await r.fire('click', r.q.getByRole('checkbox', { name: /published/i }));
      await r.fire('submit', r.q.getByRole('form'));
      assert.deepEqual(submitted, [{ title: 'Lamp', price: 12.5, published: true }]);
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a searchable user table with users: User[], an onSelect callback and a loading spinner',
    expect: 'implemented',
    ci: true,
    async check({ main }) {
      const selected: unknown[] = [];
      const r = await render(main, { users, onSelect: (u: unknown) => selected.push(u) });
      r.q.getByRole('table');
      const headers = r.q.getAllByRole('columnheader').map((h) => h.textContent);
      assert.deepEqual(headers, ['Id', 'Name', 'Email', 'Role']);
      await r.type(r.q.getByRole('searchbox'), 'grace');
      assert.equal(r.q.getAllByRole('row').length, 2, 'the header and the one matching row');
      await r.fire('click', r.q.getByText('Grace'));
      assert.deepEqual(selected, [users[1]]);
      await r.rerender({ users, loading: true });
      r.q.getByRole('status');
      assert.equal(r.q.queryByRole('table'), null);
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a sortable, paginated product table with name, price: number and stock: number columns',
    expect: 'implemented',
    async check({ main }) {
      const products = Array.from({ length: 25 }, (_, i) => ({
        id: i,
        name: `P${i}`,
        price: (i * 7) % 25,
        stock: i,
      }));
      const r = await checkTable(main, 'rows', products, [/^Name/, /^Price/, /^Stock/]);
      assert.equal(r.q.getAllByRole('row').length, 11, 'ten rows a page and the header');
      await r.fire('click', r.q.getByRole('button', { name: /^price/i }));
      const firstPrice = r.q.getAllByRole('row')[1]!.querySelectorAll('td')[1]!.textContent;
      assert.equal(firstPrice, '0');
      await r.fire('click', r.q.getByRole('button', { name: /next/i }));
      r.q.getByText(/page 2 of 3/i);
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a table of users with name and email and pagination',
    expect: 'implemented',
    async check({ main }) {
      const many = Array.from({ length: 12 }, (_, i) => ({
        name: `User ${i}`,
        email: `u${i}@example.com`,
        role: 'x',
      }));
      const r = await render(main, { rows: many });
      assert.deepEqual(
        r.q.getAllByRole('columnheader').map((h) => h.textContent),
        ['Name', 'Email'],
        'the columns named, not "pagination"',
      );
      assert.equal(r.q.getAllByRole('row').length, 11);
      await r.fire('click', r.q.getByRole('button', { name: /next/i }));
      assert.equal(r.q.getAllByRole('row').length, 3);
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a table of orders with filtering and an error state',
    expect: 'implemented',
    async check({ main }) {
      const orders = [
        { id: 1, customer: 'Ada', total: 10 },
        { id: 2, customer: 'Linus', total: 20 },
      ];
      const r = await render(main, { rows: orders });
      r.q.getByRole('table');
      await r.type(r.q.getByRole('searchbox'), 'linus');
      assert.equal(r.q.getAllByRole('row').length, 2);
      await r.rerender({ rows: orders, error: 'The orders could not be loaded.' });
      assert.match(r.q.getByRole('alert').textContent ?? '', /could not be loaded/);
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a list of todos with an onSelect callback',
    expect: 'implemented',
    async check({ main }) {
      const todos = [
        { id: 1, title: 'Write tests' },
        { id: 2, title: 'Ship' },
      ];
      const picked: unknown[] = [];
      const r = await render(main, {
        items: todos,
        rows: todos,
        todos,
        onSelect: (t: unknown) => picked.push(t),
      });
      assert.equal(r.q.getAllByRole('listitem').length, 2);
      await r.fire('click', r.q.getByRole('button', { name: 'Ship' }));
      assert.deepEqual(picked, [todos[1]]);
      await r.rerender({ items: [], rows: [], todos: [] });
      r.q.getByText(/nothing/i);
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a modal dialog with a title and a close button',
    expect: 'implemented',
    ci: true,
    async check({ main }) {
      let closed = 0;
      const onClose = () => closed++;
      const r = await render(main, { open: true, title: 'Delete project?', onClose, children: 'Sure?' });
      r.q.getByRole('dialog', { name: 'Delete project?' });
      await r.fire('click', r.q.getByRole('button', { name: /close/i }));
      assert.equal(closed, 1);
      await r.act(() =>
        browser().document.dispatchEvent(new (browser().KeyboardEvent)('keydown', { key: 'Escape' })),
      );
      assert.equal(closed, 2, 'Escape closes it');
      await r.rerender({ open: false, title: 'Delete project?', onClose });
      assert.equal(r.q.queryByRole('dialog'), null);
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'tabs that switch between panels',
    expect: 'implemented',
    async check({ main }) {
      const tabs = [
        { id: 'a', label: 'Overview', content: 'First panel' },
        { id: 'b', label: 'Settings', content: 'Second panel' },
      ];
      const r = await render(main, { tabs });
      r.q.getByRole('tablist');
      assert.equal(r.q.getAllByRole('tab').length, 2);
      assert.match(r.q.getByRole('tabpanel').textContent ?? '', /First/);
      await r.fire('click', r.q.getByRole('tab', { name: 'Settings' }));
      assert.match(r.q.getByRole('tabpanel').textContent ?? '', /Second/);
      assert.equal(r.q.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected'), 'true');
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a loading spinner with an error state and a retry button',
    expect: 'implemented',
    async check({ main }) {
      let retried = 0;
      const r = await render(main, { loading: true });
      r.q.getByRole('status');
      await r.rerender({ loading: false, error: 'Offline', onRetry: () => retried++ });
      assert.match(r.q.getByRole('alert').textContent ?? '', /Offline/);
      await r.fire('click', r.q.getByRole('button', { name: /try again/i }));
      assert.equal(retried, 1);
      await r.rerender({ loading: false, children: 'Loaded' });
      r.q.getByText('Loaded');
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a counter with increment and decrement buttons',
    expect: 'implemented',
    async check({ main }) {
      const seen: number[] = [];
      const r = await render(main, { max: 2, onChange: (v: number) => seen.push(v) });
      assert.equal(r.q.getByRole('status', { name: 'Count' }).textContent, '0');
      await r.fire('click', r.q.getByRole('button', { name: 'Increment' }));
      await r.fire('click', r.q.getByRole('button', { name: 'Increment' }));
      assert.equal(r.q.getByRole('status', { name: 'Count' }).textContent, '2');
      assert.equal(r.q.getByRole('button', { name: 'Increment' }).disabled, true, 'not past max');
      await r.fire('click', r.q.getByRole('button', { name: 'Decrement' }));
      assert.deepEqual(seen, [1, 2, 1]);
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a UserCard component with name: string, email: email and avatar: url',
    expect: 'implemented',
    async check({ main }) {
      const r = await render(main, { name: 'Ada', email: 'ada@example.com', avatar: 'https://x.org/a.png' });
      r.q.getByRole('heading', { name: 'Ada' });
      assert.equal(
        r.q.getByRole('link', { name: 'ada@example.com' }).getAttribute('href'),
        'mailto:ada@example.com',
      );
      assert.equal(r.q.getByRole('img').getAttribute('src'), 'https://x.org/a.png');
      await r.unmount();
    },
  },
  {
    kind: 'component',
    description: 'a ProductTile card with title, price: number and tags: string[]',
    expect: 'implemented',
    async check({ main }) {
      const r = await render(main, { title: 'Lamp', price: 12, tags: ['home', 'light'] });
      r.q.getByRole('heading', { name: 'Lamp' });
      assert.equal(r.q.getAllByRole('listitem').length, 2);
      r.q.getByText('12');
      await r.unmount();
    },
  },
  // ---------------------------------------------------------------------------------------- API
  {
    kind: 'api',
    description: 'an api for todos with title: string(1..80) and done: boolean',
    expect: 'implemented',
    ci: true,
    async check({ mod }) {
      const router = Object.values(mod).find((v) => typeof v === 'function');
      const api = await serve(router);
      try {
        const created = await api.call('POST', '/', { title: 'Write tests', done: false });
        assert.equal(created.status, 201);
        const id = (created.body as { id: string }).id;
        assert.equal((await api.call('POST', '/', { title: '', done: 'no' })).status, 400);
        assert.equal((await api.call('GET', '/')).status, 200);
        assert.equal((await api.call('GET', `/${id}`)).status, 200);
        assert.equal((await api.call('PATCH', `/${id}`, { done: true })).status, 200);
        assert.equal((await api.call('DELETE', `/${id}`)).status, 204);
        assert.equal((await api.call('GET', `/${id}`)).status, 404);
      } finally {
        await api.close();
      }
    },
  },
  {
    kind: 'api',
    description: 'express CRUD routes for products with name: string, price: number >= 0 and tags: string[]',
    expect: 'implemented',
    async check({ mod }) {
      const router = Object.values(mod).find((v) => typeof v === 'function');
      const api = await serve(router);
      try {
        assert.equal((await api.call('POST', '/', { name: 'Lamp', price: -1, tags: [] })).status, 400);
        const created = await api.call('POST', '/', { name: 'Lamp', price: 3, tags: ['home'] });
        assert.equal(created.status, 201);
        assert.equal(((await api.call('GET', '/')).body as unknown[]).length, 1);
      } finally {
        await api.close();
      }
    },
  },
  // ------------------------------------------------------------------------------------- schema
  {
    kind: 'schema',
    description: 'schema Product with name: string(1..80), price: number >= 0, tags: string[]',
    expect: 'implemented',
    ci: true,
    check({ mod }) {
      const schema = mod.ProductSchema as { safeParse(v: unknown): { success: boolean } };
      assert.equal(schema.safeParse({ name: 'Lamp', price: 1, tags: [] }).success, true);
      assert.equal(schema.safeParse({ name: '', price: 1, tags: [] }).success, false);
      assert.equal(schema.safeParse({ name: 'Lamp', price: -1, tags: [] }).success, false);
    },
  },
  {
    kind: 'schema',
    description: 'a User schema with id: uuid, email: email and age?: int >= 0',
    expect: 'implemented',
    check({ mod }) {
      const schema = mod.UserSchema as { safeParse(v: unknown): { success: boolean } };
      const id = '6f1c2a7e-1b2c-4d3e-8f90-123456789abc';
      assert.equal(schema.safeParse({ id, email: 'ada@example.com' }).success, true);
      assert.equal(schema.safeParse({ id, email: 'nope' }).success, false);
      assert.equal(schema.safeParse({ id, email: 'ada@example.com', age: 1.5 }).success, false);
    },
  },
  {
    kind: 'schema',
    description: 'a zod schema for an Address with street, city, zip: string and country',
    expect: 'implemented',
    check({ main }) {
      const schema = main as { safeParse(v: unknown): { success: boolean } };
      assert.equal(schema.safeParse({ street: 'a', city: 'b', zip: 'c', country: 'd' }).success, true);
      assert.equal(schema.safeParse({ street: 'a' }).success, false);
    },
  },
  {
    kind: 'schema',
    description: 'a TypeScript interface for User with id: uuid, email, age?: int',
    expect: 'implemented',
    ci: true,
    check({ result }) {
      assert.equal(result.name, 'User');
      checkType(result, "export const u: User = { id: 'x', email: 'a@b.co' };", [
        "export const u: User = { id: 'x' };",
        "export const u: User = { id: 'x', email: 'a@b.co', age: '3' };",
      ]);
    },
  },
  {
    kind: 'schema',
    description: 'type Product with name: string, price: number and tags: string[]',
    expect: 'implemented',
    check({ result }) {
      checkType(result, "export const p: Product = { name: 'Lamp', price: 3, tags: [] };", [
        "export const p: Product = { name: 'Lamp', price: 3 };",
      ]);
    },
  },
  // ---------------------------------------------------------------------- honest skeletons
  {
    kind: 'function',
    description: 'calculate the shipping cost by weight and destination zone',
    expect: 'skeleton',
    ci: true,
  },
  {
    kind: 'function',
    description: 'the average of the numbers but ignoring negatives',
    expect: 'skeleton',
    ci: true,
  },
  { kind: 'function', description: 'parse a CSV file into rows', expect: 'skeleton' },
  { kind: 'function', description: 'translate text into French', expect: 'skeleton' },
  { kind: 'function', description: 'sort users by name but put admins first', expect: 'skeleton' },
  { kind: 'function', description: 'debounce a function but only on weekdays', expect: 'skeleton' },
  { kind: 'function', description: 'compute the median of values: number[]', expect: 'skeleton' },
  { kind: 'component', description: 'a 3D globe that spins to the user location', expect: 'skeleton' },
  { kind: 'component', description: 'a drag and drop kanban board', expect: 'skeleton', ci: true },
  { kind: 'component', description: 'a chart of monthly revenue', expect: 'skeleton' },
  {
    kind: 'component',
    description: 'a login form with email, password and two-factor authentication by SMS',
    expect: 'skeleton',
  },
  { kind: 'component', description: 'a video player with subtitles', expect: 'skeleton' },
  { kind: 'component', description: 'a todo list with add and delete', expect: 'skeleton' },
  { kind: 'component', description: 'a counter with a reset button and history', expect: 'skeleton' },
  { kind: 'function', description: 'format a date as YYYY-MM-DD', expect: 'skeleton' },
  {
    kind: 'api',
    description: 'a Fastify CRUD api for books with title: string',
    expect: 'skeleton',
    ci: true,
  },
  { kind: 'api', description: 'a GraphQL api for posts', expect: 'skeleton' },
  { kind: 'api', description: 'an api that sends password reset emails', expect: 'skeleton' },
  { kind: 'schema', description: 'a schema for the thing we discussed', expect: 'skeleton' },
];
