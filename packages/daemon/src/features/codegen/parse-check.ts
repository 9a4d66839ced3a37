import type ts from 'typescript';

/**
 * Whether code parses, read by the TypeScript compiler's parser (a dependency of the daemon, loaded
 * on first use only: most daemons never check a model's code). TypeScript syntax in a JavaScript
 * file is an error, as it would be for the user.
 */

type TypeScript = typeof ts;
let loaded: Promise<TypeScript> | undefined;

const typescript = (): Promise<TypeScript> =>
  (loaded ??= import('typescript').then((m) => ((m as { default?: TypeScript }).default ?? m) as TypeScript));

export interface SyntaxProblem {
  line: number;
  column: number;
  message: string;
}

/**
 * The syntax errors of `code` read as the file `fileName` (its extension decides TypeScript or
 * JavaScript, with or without JSX: `<T>(x: T) => x` is a generic in .ts and JSX in .tsx).
 */
export async function syntaxErrors(code: string, fileName: string): Promise<SyntaxProblem[]> {
  const ts = await typescript();
  const out = ts.transpileModule(code, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: {
      jsx: ts.JsxEmit.Preserve,
      allowJs: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      noEmit: false,
    },
  });
  return (out.diagnostics ?? []).map((d) => {
    const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
    return {
      line: (at?.line ?? 0) + 1,
      column: (at?.character ?? 0) + 1,
      message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    };
  });
}
