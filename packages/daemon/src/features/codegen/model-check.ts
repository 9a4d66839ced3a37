import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import type { GenerateResult } from '@forge/shared';
import { RECIPES } from './recipes/index.ts';
import { describe as describeSpec } from './recipes/describe.ts';
import type { Spec } from './grammar.ts';
import { checkGenerated } from './type-check.ts';

/**
 * Whether a model's code may replace the built-in answer: it must export what was asked for under
 * the name asked for, type-check against the interface of the built-in answer (the props, the
 * signature, the router, the schema's type), and, where the recipe has examples, compute them. A
 * model's code is never run inside the daemon: examples run in a separate Node process under
 * Node's permission model (no file writes, no child processes, no workers), with a time limit.
 */

export type Verdict = { ok: true; checked: string } | { ok: false; reason: string };

/** The names a module exports (declarations and `export { … }`). */
function exportedNames(code: string, fileName: string): Set<string> {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.ES2022, true);
  const names = new Set<string>();
  for (const statement of source.statements) {
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (
      exported &&
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) &&
      statement.name
    )
      names.add(statement.name.text);
    if (exported && ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations)
        if (ts.isIdentifier(d.name)) names.add(d.name.text);
    if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    )
      for (const e of statement.exportClause.elements) names.add(e.name.text);
  }
  return names;
}

/** The check file: the model's export must fit wherever the built-in one is used. */
function fitCheck(kind: Spec['kind'], name: string, reference: string): string {
  const imports = [
    `import { ${name} as candidate } from './candidate';`,
    `import { ${name} as reference } from './reference';`,
  ];
  if (kind === 'schema') {
    return [
      "import type { z } from 'zod';",
      ...imports,
      'type Candidate = z.infer<typeof candidate>;',
      'type Reference = z.infer<typeof reference>;',
      'export const fits = (value: Reference): Candidate => value;',
      'export const back = (value: Candidate): Reference => value;',
      '',
    ].join('\n');
  }
  const props = `${name}Props`;
  // A component must take the props asked for, by the same name: not merely be callable.
  const sameProps =
    kind === 'component' && new RegExp(`export (interface|type) ${props}\\b`).test(reference)
      ? [
          `import type { ${props} as CandidateProps } from './candidate';`,
          `import type { ${props} as ReferenceProps } from './reference';`,
          'export const propsFit = (props: ReferenceProps): CandidateProps => props;',
          'export const propsBack = (props: CandidateProps): ReferenceProps => props;',
        ]
      : [];
  return [...imports, ...sameProps, 'export const fits: typeof reference = candidate;', ''].join('\n');
}

/** Type-check the model's code against the built-in answer's interface; the problems, if any. */
export function interfaceProblems(kind: Spec['kind'], code: string, draft: GenerateResult): string[] {
  const ext = path.extname(draft.fileName);
  const prefix = `check-${process.pid}-${Date.now()}`;
  const candidate = `${prefix}/candidate${ext}`;
  const files = [
    { fileName: candidate, code },
    { fileName: `${prefix}/reference${ext}`, code: draft.code },
    { fileName: `${prefix}/fit${ext}`, code: fitCheck(kind, draft.name, draft.code) },
  ];
  // Unused locals are the user's business, not a reason to refuse working code.
  const diagnostics = checkGenerated(files, { noUnusedLocals: false, noUnusedParameters: false });
  return [...(diagnostics.get(candidate) ?? []), ...(diagnostics.get(`${prefix}/fit${ext}`) ?? [])];
}

const lastErrorLine = (stderr: string): string =>
  stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /Error|code:/.test(l))
    .slice(-2)
    .join(' ');

/** Node 20 calls its permission model experimental; later releases call it --permission. */
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has('--permission')
  ? '--permission'
  : '--experimental-permission';

/** Run the recipe's examples against the model's function in a locked-down Node process. */
async function examplesProblems(
  code: string,
  draft: GenerateResult,
  spec: Spec,
): Promise<{ ran: number; problem: string | null }> {
  const recipe = RECIPES.find(
    (r) => r.examples && r.kinds.includes(spec.kind) && r.match(describeSpec(spec)),
  );
  const examples = recipe?.examples?.(describeSpec(spec));
  if (!examples || examples.length === 0) return { ran: 0, problem: null };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-codegen-check-'));
  try {
    const js = ts.transpileModule(code, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
    await fs.writeFile(path.join(dir, 'candidate.mjs'), js);
    const runner = [
      "import { isDeepStrictEqual } from 'node:util';",
      `const examples = ${JSON.stringify(examples)};`,
      `const mod = await import('./candidate.mjs');`,
      `const fn = mod[${JSON.stringify(draft.name)}];`,
      'for (const e of examples) {',
      '  let got;',
      '  try { got = await fn(...e.args); } catch (err) { got = { threw: String(err) }; }',
      '  if (!isDeepStrictEqual(got, e.returns)) {',
      '    console.log(JSON.stringify({ args: e.args, expected: e.returns, got }));',
      '    process.exit(1);',
      '  }',
      '}',
    ].join('\n');
    await fs.writeFile(path.join(dir, 'run.mjs'), runner);
    const outcome = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--no-warnings', PERMISSION_FLAG, `--allow-fs-read=${dir}`, path.join(dir, 'run.mjs')],
        { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out = (out + c.toString()).slice(0, 10_000)));
      child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(0, 10_000)));
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.on('close', (exit) => {
        clearTimeout(timer);
        // The failing example is on stdout; an error that stopped the run is the last line of stderr.
        resolve({ code: exit, out: out.trim() || lastErrorLine(err) });
      });
    });
    if (outcome.code === 0) return { ran: examples.length, problem: null };
    const line = outcome.out.trim().split('\n')[0] ?? '';
    return {
      ran: examples.length,
      problem:
        outcome.code === null
          ? 'it did not finish its examples within 5 s'
          : `it fails the example ${line.slice(0, 300)}`,
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Whether to take the model's code in place of `draft` (the built-in answer). */
export async function verifyModelCode(code: string, spec: Spec, draft: GenerateResult): Promise<Verdict> {
  const names = exportedNames(code, draft.fileName);
  if (!names.has(draft.name)) return { ok: false, reason: `the model's code does not export ${draft.name}` };
  if (draft.language === 'typescript') {
    const problems = interfaceProblems(spec.kind, code, draft);
    if (problems.length > 0)
      return {
        ok: false,
        reason: `the model's code does not type-check against the interface asked for (${problems[0]})`,
      };
  }
  const examples = await examplesProblems(code, draft, spec);
  if (examples.problem) return { ok: false, reason: `the model's code is wrong: ${examples.problem}` };
  const fits =
    draft.language === 'typescript'
      ? 'type-checks against the interface asked for'
      : 'exports what was asked for';
  return {
    ok: true,
    checked:
      examples.ran > 0
        ? `${fits} and computes the ${examples.ran} examples of the built-in recipe`
        : `${fits}; no built-in example proves what it computes`,
  };
}
