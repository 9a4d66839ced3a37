import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CODE_KINDS, generateCode, GenerationError, nameForms, type CodeKind } from './templates.ts';

/** Syntax errors of `code` read as JavaScript with JSX (the inserted file is .js). */
function syntaxErrors(code: string): string[] {
  const out = ts.transpileModule(code, {
    fileName: 'generated.jsx',
    reportDiagnostics: true,
    compilerOptions: { jsx: ts.JsxEmit.Preserve, allowJs: true, target: ts.ScriptTarget.ES2022 },
  });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('code generator templates', () => {
  it('reads a name in any style', () => {
    for (const raw of ['user card', 'user-card', 'user_card', 'UserCard', 'userCard', '  USER card ']) {
      expect(nameForms(raw)).toEqual({
        pascal: 'UserCard',
        camel: 'userCard',
        kebab: 'user-card',
        words: 'user card',
      });
    }
    expect(nameForms('HTMLParser').kebab).toBe('html-parser');
  });

  it.each(CODE_KINDS)('generates valid JavaScript for %s', (kind: CodeKind) => {
    const code = generateCode(kind, 'order item');
    expect(syntaxErrors(code)).toEqual([]);
    // Deterministic: the same input gives the same file.
    expect(generateCode(kind, 'order item')).toBe(code);
  });

  it('names each kind from the input', () => {
    expect(generateCode('component', 'order item')).toContain('export function OrderItem({ title, children');
    expect(generateCode('component', 'order item')).toContain('className="order-item"');
    const api = generateCode('api', 'order item');
    expect(api).toContain('export const orderItemRouter = Router();');
    expect(api).toContain("app.use('/api/order-item', orderItemRouter)");
    expect(api).toMatch(/orderItemRouter\.delete\('\/:id'/);
    const fn = generateCode('function', 'order item');
    expect(fn).toContain('export function orderItem(input, options = {})');
    expect(fn).toContain('@returns {string}');
    const schema = generateCode('schema', 'order item');
    expect(schema).toContain('export const OrderItemSchema = z.object({');
    expect(schema).toContain('export const CreateOrderItemSchema = OrderItemSchema.omit(');
    expect(schema).toContain('export function parseOrderItem(input)');
  });

  it('uses the kind default when the name is blank', () => {
    expect(generateCode('component', '   ')).toContain('export function UserCard(');
    expect(generateCode('schema', '')).toContain('export const UserSchema');
  });

  it('refuses names that cannot make an identifier', () => {
    expect(() => generateCode('function', '!!!')).toThrow(GenerationError);
    expect(() => generateCode('component', '3d view')).toThrow('cannot start with a digit');
  });
});
