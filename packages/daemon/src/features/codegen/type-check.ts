/**
 * Type-checking generated code: one TypeScript program holds every file, as the user's project
 * would: strict, unused locals and parameters reported, the real type definitions of React
 * (@forge/web's), Express and zod (the daemon's own) resolved from the repo's node_modules. The
 * tests check every answer of the built-in generator with it; CodeGenBot checks a model's code
 * against the interface it was asked for with it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const daemonRoot = path.resolve(here, '../../..');
const webRoot = path.resolve(daemonRoot, '../web');

export interface GeneratedFile {
  /** Unique name of the file inside the virtual folder, e.g. "0-UserCard.tsx". */
  fileName: string;
  code: string;
}

const OPTIONS: ts.CompilerOptions = {
  strictFunctionTypes: true,
  strict: true,
  noUncheckedIndexedAccess: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  exactOptionalPropertyTypes: false,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
  noImplicitOverride: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  allowJs: true,
  checkJs: false,
  skipLibCheck: true,
  noEmit: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
};

/**
 * Where a generated file pretends to live: components and hooks beside React's types, the rest
 * beside Express and zod.
 */
const virtualPath = (fileName: string, code = ''): string =>
  /\.(tsx|jsx)$/.test(fileName) || /from 'react'/.test(code)
    ? path.join(webRoot, 'src', '__codegen__', fileName)
    : path.join(daemonRoot, 'src', '__codegen__', fileName);

/** Library files parsed once for every program of the test run. */
const sourceCache = new Map<string, ts.SourceFile>();

/**
 * Diagnostics per generated file: semantic and syntactic for TypeScript, syntactic for JavaScript
 * (the JSDoc types of a .js file are not checked: `checkJs` is the user's choice, not a given).
 */
export function checkGenerated(
  files: GeneratedFile[],
  options: ts.CompilerOptions = {},
): Map<string, string[]> {
  const virtual = new Map(files.map((f) => [virtualPath(f.fileName, f.code), f.code]));
  const compilerOptions = { ...OPTIONS, ...options };
  const host = ts.createCompilerHost(compilerOptions, true);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (p) => virtual.has(p) || fileExists(p);
  // The virtual files' folders do not exist on disk: module resolution must still look in them.
  host.directoryExists = (d) =>
    [...virtual.keys()].some((p) => p.startsWith(d + path.sep)) || ts.sys.directoryExists(d);
  host.readFile = (p) => virtual.get(p) ?? readFile(p);
  host.getSourceFile = (p, languageVersion) => {
    const code = virtual.get(p);
    if (code !== undefined) return ts.createSourceFile(p, code, languageVersion, true);
    const cached = sourceCache.get(p);
    if (cached) return cached;
    const text = readFile(p);
    if (text === undefined) return undefined;
    const source = ts.createSourceFile(p, text, languageVersion, true);
    sourceCache.set(p, source);
    return source;
  };
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options: compilerOptions, host });
  const results = new Map<string, string[]>();
  for (const file of files) {
    const source = program.getSourceFile(virtualPath(file.fileName, file.code));
    if (!source) {
      results.set(file.fileName, ['not in the program']);
      continue;
    }
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...(/\.(ts|tsx)$/.test(file.fileName) ? program.getSemanticDiagnostics(source) : []),
    ];
    results.set(
      file.fileName,
      diagnostics.map((d) => {
        const at = d.start !== undefined ? source.getLineAndCharacterOfPosition(d.start) : null;
        const where = at ? `${at.line + 1}:${at.character + 1} ` : '';
        return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      }),
    );
  }
  return results;
}
