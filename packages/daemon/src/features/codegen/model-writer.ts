import type { CodeKind, GenerateResult } from '@forge/shared';
import type { ModelClient } from '../../capabilities/model/types.ts';
import type { Spec } from './grammar.ts';
import { syntaxErrors } from './parse-check.ts';

/**
 * CodeGenBot with a model: the model writes the code from the description, told the kind, the
 * language, the name and the fields the grammar read, with the built-in generator's draft to
 * improve. Its answer is taken only when it parses, exports what was asked for, type-checks
 * against the draft's interface and computes the recipe's examples (model-check.ts); otherwise the
 * caller answers with the draft and says why.
 */

const KIND_BRIEFS: Record<CodeKind, (name: string, ts: boolean) => string> = {
  component: (name, ts) =>
    `a React function component named ${name}${ts ? ' with a typed props interface' : ' (JSX, props documented with JSDoc)'}, exported by name`,
  api: (name, ts) =>
    `an Express router exported as ${name}, with list, get, create, update and delete routes and hand-written validation of the request body${ts ? ', typed' : ''}; it imports nothing but express`,
  function: (name, ts) =>
    `a function named ${name}${ts ? ' with typed parameters and return type' : ''} and a JSDoc comment, exported by name; it must not throw "not implemented"`,
  schema: (name) => `a zod 4 schema exported as ${name} and the type it infers; it imports nothing but zod`,
};

/** The longest reply taken as code (a model that rambles on is cut off by maxTokens anyway). */
const MAX_CODE_CHARS = 200_000;

/** The messages sent to the model. */
export function codePrompt(
  spec: Spec,
  draft: GenerateResult,
): Array<{ role: 'system' | 'user'; content: string }> {
  const ts = draft.language === 'typescript';
  const fields =
    draft.fields.length > 0
      ? draft.fields.map((f) => `- ${f.name}${f.optional ? ' (optional)' : ''}: ${f.type}`).join('\n')
      : '- none stated';
  return [
    {
      role: 'system',
      content: [
        `You are CodeGenBot, the code generator of Forge. Write one ${ts ? 'TypeScript' : 'JavaScript'} file, ${draft.fileName}: ${KIND_BRIEFS[spec.kind](draft.name, ts)}.`,
        `Kind: ${spec.kind}. Language: ${draft.language}. Name: ${draft.name}.`,
        `Fields read from the description:\n${fields}`,
        `Keep the draft's exported name and interface (its props, parameters and return type): the answer is type-checked against them.`,
        'Do what the description asks, completely. Reply with only the code: no explanation, no Markdown fences.',
      ].join('\n'),
    },
    {
      role: 'user',
      content: `${spec.description}\n\n${
        draft.kind === 'skeleton'
          ? `The built-in generator could only write a skeleton (${draft.reason}); write the real body, keeping its interface:`
          : `A draft written by the built-in generator (${draft.reason}), to improve on without changing its interface:`
      }\n\n${draft.code}`,
    },
  ];
}

/** The code inside the first fenced block of a reply (```ts … ```), else the whole reply. */
export function stripFences(reply: string): string {
  const fenced = /```[\w+-]*[^\S\n]*\n([\s\S]*?)\n?```/.exec(reply);
  return (fenced ? fenced[1]! : reply).trim();
}

export type ModelOutcome = { ok: true; code: string; checked: string } | { ok: false; reason: string };

/** Ask the model; `ok: false` says why its answer was not taken (the caller falls back to the draft). */
export async function writeWithModel(
  model: ModelClient,
  spec: Spec,
  draft: GenerateResult,
  signal?: AbortSignal,
): Promise<ModelOutcome> {
  let reply: string;
  try {
    reply = await model.complete({
      messages: codePrompt(spec, draft),
      temperature: 0,
      maxTokens: 4_000,
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    return {
      ok: false,
      reason: `the model did not answer: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  const code = stripFences(reply);
  if (code === '') return { ok: false, reason: 'the model answered nothing' };
  if (code.length > MAX_CODE_CHARS)
    return { ok: false, reason: `the model's answer is too long (${code.length} characters)` };
  const problems = await syntaxErrors(code, draft.fileName);
  if (problems.length > 0) {
    const first = problems[0]!;
    return {
      ok: false,
      reason: `the model's code does not parse (line ${first.line}:${first.column}: ${first.message})`,
    };
  }
  const { verifyModelCode } = await import('./model-check.ts');
  const verdict = await verifyModelCode(code, spec, draft);
  if (!verdict.ok) return verdict;
  return { ok: true, code: `${code}\n`, checked: verdict.checked };
}
