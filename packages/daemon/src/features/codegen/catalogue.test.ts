import { afterAll, describe, expect, it } from 'vitest';
import { CODE_KINDS } from '@forge/shared';
import { CASES } from '../../../bench/codegen/descriptions.ts';
import { cleanUp } from '../../../bench/codegen/harness.ts';
import { runCases } from '../../../bench/codegen/run.ts';
import { generateFromTemplate } from './generator.ts';
import { RECIPES } from './recipes/index.ts';
import { syntaxErrors } from './parse-check.ts';

afterAll(cleanUp);

/**
 * The CI version of `pnpm bench assistants` (code generator): a part of the benchmark's
 * descriptions, answered, type-checked and run against their checks. No answer may be wrong: an
 * implementation passes its checks, anything else is a skeleton that says so.
 */
describe('the code generator on the benchmark descriptions (CI subset)', () => {
  const ci = CASES.filter((c) => c.ci);

  it('the subset covers every kind, implementations and skeletons', () => {
    expect(new Set(ci.map((c) => c.kind))).toEqual(new Set(CODE_KINDS));
    expect(ci.filter((c) => c.expect === 'skeleton').length).toBeGreaterThan(3);
    expect(CASES.length).toBeGreaterThanOrEqual(60);
  });

  it('implements what it claims, proven by running it, and says skeleton for the rest', async () => {
    const outcomes = await runCases(ci);
    const report = outcomes.map(
      (o) => `${o.verdict.padEnd(11)} ${o.case.description}${o.note ? ` — ${o.note}` : ''}`,
    );
    expect(
      outcomes.filter((o) => o.verdict === 'wrong').map((o) => o.note ?? ''),
      report.join('\n'),
    ).toEqual([]);
    expect(
      outcomes.map((o) => o.verdict),
      report.join('\n'),
    ).toEqual(ci.map((c) => c.expect));
  }, 120_000);
});

describe('the answers to the descriptions that used to be wrong', () => {
  it('a cart total multiplies quantity by price and applies the discount', () => {
    const { result } = generateFromTemplate(
      'function',
      'calculate the total price of cart items with quantity and price, applying a discount percent',
    );
    expect(result.kind).toBe('implemented');
    expect(result.code).toContain('item.price * item.quantity');
    expect(result.code).toContain('discountPercent');
    expect(result.code).not.toMatch(/quantity \+ price/);
  });

  it('a login form has a form, an email input, a password input and a submit button', () => {
    const { result } = generateFromTemplate('component', 'a login form with email and password');
    expect(result).toMatchObject({ kind: 'implemented', name: 'LoginForm', fileName: 'LoginForm.tsx' });
    expect(result.code).toContain('<form');
    expect(result.code).toContain("input: 'password'");
    expect(result.code).toContain('type="submit"');
    expect(result.code).not.toContain('<dl>');
  });

  it('a description the catalogue cannot do is a skeleton that says why, in the code and the answer', () => {
    const { result } = generateFromTemplate(
      'function',
      'calculate the shipping cost by weight and destination zone',
    );
    expect(result.kind).toBe('skeleton');
    expect(result.reason).toMatch(/no recipe/);
    expect(result.code.split('\n')[0]).toMatch(/^\/\/ Skeleton: /);
    expect(result.code).toContain('is a skeleton: its body is not written yet');
  });
});

describe('every recipe in JavaScript', () => {
  it('parses, and keeps no TypeScript syntax', async () => {
    const implemented = CASES.filter((c) => c.expect === 'implemented');
    const seen = new Set<string>();
    for (const c of implemented) {
      const out = generateFromTemplate(c.kind, c.description, 'javascript');
      // The emitters' own answers (display, CRUD, schema, function tasks) have their tests in generator.test.ts.
      if (!out.recipe || seen.has(out.recipe) || !RECIPES.some((r) => r.id === out.recipe)) continue;
      seen.add(out.recipe);
      expect(out.result.fileName).toMatch(/\.jsx?$/);
      expect(await syntaxErrors(out.result.code, out.result.fileName), c.description).toEqual([]);
      expect(out.result.code, c.description).not.toMatch(/\binterface\s+\w+\s*\{|: string\b/);
    }
    // Every recipe of the catalogue is reached by some benchmark description.
    expect([...RECIPES.map((r) => r.id)].filter((id) => !seen.has(id))).toEqual([]);
  });
});
