import { packageNameOf } from '../package-name.ts';
import type * as TS from 'typescript';
import { lineAt } from './jsonc.ts';

/**
 * What a source file imports, read with TypeScript's own pre-processor (`ts.preProcessFile`), the
 * scanner the compiler uses to find a file's dependencies before it parses it: `import … from`,
 * `export … from`, `import x = require()`, `require()` and `import()` with a string literal, in JS,
 * JSX, TS and TSX alike, never fooled by a specifier in a comment or a string. (es-module-lexer, what
 * Vite uses, lexes only JavaScript after transformation: raw JSX text such as `<p>don't</p>` and
 * `import x = require()` stop it.)
 */

/** Extensions of files whose imports are read; .vue and .svelte through their <script> blocks. */
export const SOURCE_EXTENSIONS = [
  '.js',
  '.jsx',
  '.ts',
  '.tsx',
  '.mjs',
  '.cjs',
  '.mts',
  '.cts',
  '.vue',
  '.svelte',
];

export interface ImportRef {
  /** As written: "lodash/fp", "./App", "node:fs". */
  specifier: string;
  /** 1-based line of the specifier in the file. */
  line: number;
  /** `import type` / `export type`: satisfied by an `@types/…` package too. */
  typeOnly: boolean;
}

export interface FileImports {
  imports: ImportRef[];
  /** `declare module "x"` of a script file: names the project declares itself (virtual modules). */
  ambientModules: string[];
}

let typescript: Promise<typeof TS> | undefined;
/** The compiler is big (a few MB of JS): loaded on the first scan, not at daemon start. */
export const loadTypeScript = (): Promise<typeof TS> =>
  (typescript ??= import('typescript').then((m) => (m.default ?? m) as typeof TS));

/** `<script>` blocks of a .vue or .svelte file: their text and offset in the file. */
function scriptBlocks(text: string): Array<{ text: string; offset: number }> {
  const blocks: Array<{ text: string; offset: number }> = [];
  const open = /<script\b[^>]*>/gi;
  let match: RegExpExecArray | null;
  while ((match = open.exec(text))) {
    const start = match.index + match[0].length;
    const end = text.toLowerCase().indexOf('</script>', start);
    if (end === -1) break;
    blocks.push({ text: text.slice(start, end), offset: start });
    open.lastIndex = end;
  }
  return blocks;
}

/** Whether the statement the specifier at `pos` belongs to is `import type` / `export type`. */
function isTypeOnly(text: string, pos: number): boolean {
  const before = text.slice(Math.max(0, pos - 400), pos);
  const keyword = [...before.matchAll(/\b(import|export)\b/g)].at(-1);
  if (!keyword) return false;
  const statement = before.slice(keyword.index);
  return /^(?:import|export)\s+type\s+(?!from\b)/.test(statement);
}

/** The imports of one source file (its <script> blocks for .vue/.svelte). */
export function importsOf(ts: typeof TS, fileName: string, text: string): FileImports {
  const blocks = /\.(vue|svelte)$/i.test(fileName) ? scriptBlocks(text) : [{ text, offset: 0 }];
  const result: FileImports = { imports: [], ambientModules: [] };
  for (const block of blocks) {
    const info = ts.preProcessFile(block.text, true, true);
    for (const ref of info.importedFiles) {
      result.imports.push({
        specifier: ref.fileName,
        line: lineAt(text, block.offset + ref.pos),
        typeOnly: isTypeOnly(block.text, ref.pos),
      });
    }
    result.ambientModules.push(...(info.ambientExternalModules ?? []));
  }
  return result;
}

/**
 * The package a bare specifier imports ("lodash/fp" → "lodash", "@a/b/c" → "@a/b"), or null for what
 * is not a package: the one rule ScanBot's diagnosis and RepairBot use too.
 */
export const packageOf = packageNameOf;
