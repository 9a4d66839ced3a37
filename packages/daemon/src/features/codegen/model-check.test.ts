import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateFromTemplate } from './generator.ts';
import { verifyModelCode } from './model-check.ts';

/** A model's code is taken only when it fits the interface asked for and computes the recipe's examples. */
describe("checking a model's code", () => {
  const cart = generateFromTemplate(
    'function',
    'calculate the total price of cart items with quantity and price, applying a discount percent',
  );

  it('takes a cart total that is right, proven by the recipe examples run outside the daemon', async () => {
    const right = [
      'export interface CartItem { price: number; quantity: number }',
      'export function cartTotal(items: readonly CartItem[], discountPercent = 0): number {',
      '  const sum = items.reduce((s, i) => s + i.price * i.quantity, 0);',
      '  return Math.round(sum * (100 - discountPercent)) / 100;',
      '}',
    ].join('\n');
    expect(await verifyModelCode(right, cart.spec, cart.result)).toEqual({
      ok: true,
      checked:
        'type-checks against the interface asked for and computes the 3 examples of the built-in recipe',
    });
  }, 30_000);

  it('refuses the sum of quantity and price, with the example it gets wrong', async () => {
    const wrong = [
      'export function cartTotal(items: readonly { price: number; quantity: number }[], discountPercent = 0): number {',
      '  return items.reduce((s, i) => s + i.price + i.quantity, 0) - discountPercent;',
      '}',
    ].join('\n');
    const verdict = await verifyModelCode(wrong, cart.spec, cart.result);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toMatch(
      /^the model's code is wrong: it fails the example .*"expected":35/,
    );
  }, 30_000);

  it('refuses code that does not fit the signature asked for, or exports another name', async () => {
    const other = await verifyModelCode(
      'export function total(a: number, b: number) { return a + b; }',
      cart.spec,
      cart.result,
    );
    expect(other).toEqual({ ok: false, reason: "the model's code does not export cartTotal" });
    const badSignature = await verifyModelCode(
      'export function cartTotal(quantity: number, price: number): number { return quantity * price; }',
      cart.spec,
      cart.result,
    );
    expect(badSignature.ok).toBe(false);
    expect(!badSignature.ok && badSignature.reason).toMatch(
      /does not type-check against the interface asked for/,
    );
  }, 30_000);

  it('refuses a component without the props interface asked for', async () => {
    const form = generateFromTemplate('component', 'a login form with email and password');
    const noProps = 'export function LoginForm() {\n  return <dl><dt>Password</dt><dd>secret</dd></dl>;\n}\n';
    const verdict = await verifyModelCode(noProps, form.spec, form.result);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toMatch(/LoginFormProps/);
  }, 30_000);

  it('a model cannot write files while its examples run', async () => {
    const sneaky = [
      "import { writeFileSync } from 'node:fs';",
      'export function chunk(items, size) {',
      "  writeFileSync('/tmp/forge-codegen-escaped', 'x');",
      '  return [items.slice(0, size)];',
      '}',
    ].join('\n');
    const split = generateFromTemplate(
      'function',
      'split an array into chunks of a given size',
      'javascript',
    );
    const verdict = await verifyModelCode(sneaky, split.spec, split.result);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toMatch(/Access to this API has been restricted|ERR_ACCESS_DENIED/);
    expect(fs.existsSync('/tmp/forge-codegen-escaped')).toBe(false);
  }, 30_000);
});
