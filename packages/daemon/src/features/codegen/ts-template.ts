import ts from 'typescript';
import type { Field, TypeNode } from './grammar.ts';

/** The language a generated file is written in. */
export type Language = 'typescript' | 'javascript';

/**
 * The recipes' writer: a recipe is TypeScript source whose placeholders are identifiers starting
 * with `$`. The source is parsed by the TypeScript compiler, each placeholder is replaced by a
 * node built with the compiler's factory (an identifier, an expression or a type), and the tree is
 * printed by the compiler's printer. A name or a label from the description therefore lands in the
 * code as an identifier or a string literal node, never as spliced text, and the output is always
 * well-formed. JavaScript is the printed TypeScript with its types removed by the compiler.
 */

/** An identifier's text, an expression, a type, or the members that replace a `$placeholder: never;` member. */
export type Substitution = string | ts.Expression | ts.TypeNode | readonly ts.TypeElement[];
export type Substitutions = Record<string, Substitution>;

const f = ts.factory;

/** `$Name` → `Name`: an identifier (valid: the callers case names with names.ts). */
function asNode(value: Substitution): ts.Node {
  if (typeof value === 'string') return f.createIdentifier(value);
  if (isMembers(value)) throw new Error('type members can only replace a member placeholder');
  return value;
}

const isMembers = (value: Substitution): value is readonly ts.TypeElement[] => Array.isArray(value);

function replace(source: ts.SourceFile, subs: Substitutions): ts.SourceFile {
  const transformer: ts.TransformerFactory<ts.SourceFile> = (context) => {
    const visit = (node: ts.Node): ts.Node | readonly ts.Node[] => {
      // A member placeholder: `$FIELDS: never;` in an interface, replaced by members (or none).
      if (ts.isPropertySignature(node) && ts.isIdentifier(node.name) && node.name.text.startsWith('$')) {
        const sub = subs[node.name.text];
        if (sub !== undefined && isMembers(sub)) return sub;
      }
      // A type placeholder: `$Values` in a type position.
      if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && !node.typeArguments) {
        const sub = subs[node.typeName.text];
        if (sub !== undefined && typeof sub !== 'string' && !isMembers(sub) && ts.isTypeNode(sub)) return sub;
      }
      if (ts.isIdentifier(node) && node.text.startsWith('$')) {
        const sub = subs[node.text];
        if (sub === undefined) throw new Error(`template placeholder ${node.text} has no value`);
        return asNode(sub);
      }
      // A string placeholder: '$label' as a whole literal.
      if (ts.isStringLiteral(node) && node.text.startsWith('$') && subs[node.text] !== undefined) {
        const sub = subs[node.text]!;
        return typeof sub === 'string' ? f.createStringLiteral(sub, true) : asNode(sub);
      }
      return ts.visitEachChild(node, visit, context);
    };
    return (file) => ts.visitEachChild(file, visit, context);
  };
  const result = ts.transform(source, [transformer]);
  const out = result.transformed[0]!;
  result.dispose();
  return out;
}

const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed, removeComments: false });

/**
 * The printed code laid out by the compiler's own formatter (the language service's): two-space
 * indentation, JSX children indented under their parent.
 */
function formatted(code: string, fileName: string): string {
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => ({ jsx: ts.JsxEmit.Preserve, allowJs: true }),
    getScriptFileNames: () => [fileName],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => (name === fileName ? ts.ScriptSnapshot.fromString(code) : undefined),
    getCurrentDirectory: () => '/',
    getDefaultLibFileName: () => 'lib.d.ts',
    fileExists: (name) => name === fileName,
    readFile: (name) => (name === fileName ? code : undefined),
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const edits = service.getFormattingEditsForDocument(fileName, {
    ...ts.getDefaultFormatCodeSettings('\n'),
    indentSize: 2,
    tabSize: 2,
    convertTabsToSpaces: true,
    indentStyle: ts.IndentStyle.Smart,
    insertSpaceAfterOpeningAndBeforeClosingNonemptyBraces: true,
    insertSpaceAfterOpeningAndBeforeClosingJsxExpressionBraces: false,
  });
  service.dispose();
  let out = code;
  for (const edit of [...edits].sort((a, b) => b.span.start - a.span.start)) {
    out = out.slice(0, edit.span.start) + edit.newText + out.slice(edit.span.start + edit.span.length);
  }
  return out;
}

/**
 * Statements separated by a blank line again (the printer drops blank lines): before every
 * top-level declaration and its doc comment.
 */
const spaced = (code: string): string =>
  code
    .replace(/\n(?=(?:\/\*\*|export |function |const |interface |type |import )[^\n]*)/g, '\n\n')
    .replace(/\n\n(\n)+/g, '\n\n')
    .replace(/(\*\/)\n\n(export |function |const |interface |type )/g, '$1\n$2')
    .replace(/(import [^\n]+;)\n\n(import )/g, '$1\n$2');

/** Print a recipe's source with its placeholders filled, as TypeScript or JavaScript. */
export function renderTemplate(
  template: string,
  subs: Substitutions,
  language: Language,
  jsx: boolean,
): string {
  const source = ts.createSourceFile(
    jsx ? 'recipe.tsx' : 'recipe.ts',
    template,
    ts.ScriptTarget.ES2022,
    true,
    jsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const printed = printer.printFile(replace(source, subs));
  const code =
    language === 'typescript'
      ? printed
      : ts.transpileModule(printed, {
          fileName: jsx ? 'recipe.tsx' : 'recipe.ts',
          compilerOptions: {
            jsx: ts.JsxEmit.Preserve,
            target: ts.ScriptTarget.ES2022,
            module: ts.ModuleKind.ESNext,
            verbatimModuleSyntax: true,
            removeComments: false,
          },
        }).outputText;
  const file = `recipe.${language === 'typescript' ? 'ts' : 'js'}${jsx ? 'x' : ''}`;
  return `${spaced(formatted(code, file)).trim()}\n`;
}

// ----------------------------------------------------------------------------------------------
// Nodes for the recipes' placeholders

/** A type node for a grammar type (the field types of a form's values, a table's rows). */
export function typeNode(type: TypeNode): ts.TypeNode {
  switch (type.kind) {
    case 'string':
    case 'uuid':
    case 'email':
    case 'url':
      return f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword);
    case 'number':
      return f.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword);
    case 'boolean':
      return f.createKeywordTypeNode(ts.SyntaxKind.BooleanKeyword);
    case 'date':
      return f.createTypeReferenceNode('Date');
    case 'record':
      return f.createTypeReferenceNode('Record', [
        f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
        f.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword),
      ]);
    case 'void':
      return f.createKeywordTypeNode(ts.SyntaxKind.VoidKeyword);
    case 'enum':
      return f.createUnionTypeNode(type.values.map((v) => f.createLiteralTypeNode(f.createStringLiteral(v))));
    case 'array':
      return f.createArrayTypeNode(typeNode(type.of));
    case 'ref':
      return f.createTypeReferenceNode(type.name);
    case 'callback':
      return f.createFunctionTypeNode(
        undefined,
        type.params.map((p) =>
          f.createParameterDeclaration(
            undefined,
            undefined,
            p.name,
            p.optional ? f.createToken(ts.SyntaxKind.QuestionToken) : undefined,
            typeNode(p.type),
          ),
        ),
        typeNode(type.returns),
      );
    default:
      return f.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword);
  }
}

/** `{ email: string; password: string; age?: number }` from fields. */
export function objectType(fields: Field[]): ts.TypeLiteralNode {
  return f.createTypeLiteralNode(
    fields.map((field) =>
      f.createPropertySignature(
        undefined,
        field.name,
        field.optional ? f.createToken(ts.SyntaxKind.QuestionToken) : undefined,
        typeNode(field.type),
      ),
    ),
  );
}

/** A JSON-like value as an expression: strings, numbers, booleans, arrays and plain objects. */
export function literal(value: unknown): ts.Expression {
  if (value === null || value === undefined) return f.createNull();
  if (typeof value === 'string') return f.createStringLiteral(value, true);
  if (typeof value === 'number')
    return value < 0
      ? f.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, f.createNumericLiteral(-value))
      : f.createNumericLiteral(value);
  if (typeof value === 'boolean') return value ? f.createTrue() : f.createFalse();
  if (Array.isArray(value)) return f.createArrayLiteralExpression(value.map(literal), value.length > 2);
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return f.createObjectLiteralExpression(
    entries.map(([k, v]) =>
      f.createPropertyAssignment(
        /^[A-Za-z_$][\w$]*$/.test(k) ? k : f.createStringLiteral(k, true),
        literal(v),
      ),
    ),
    false,
  );
}
