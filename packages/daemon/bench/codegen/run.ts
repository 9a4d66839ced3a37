/**
 * Runs the benchmark's cases through the built-in generator: every answer type-checked under
 * strict (the real types of React, Express and zod), implemented answers run against their checks,
 * skeletons proven to compute nothing (a skeleton function throws when called).
 */
import type { GenerateResult } from '@forge/shared';
import { generateFromTemplate } from '../../src/features/codegen/generator.ts';
import { checkGenerated } from '../../src/features/codegen/type-check.ts';
import type { Case } from './descriptions.ts';
import { cleanUp, load } from './harness.ts';

export type Verdict = 'implemented' | 'skeleton' | 'wrong';

export interface Outcome {
  case: Case;
  result: GenerateResult;
  verdict: Verdict;
  /** Why a case is wrong, or which expected implementation came back a skeleton. */
  note?: string;
  ms: number;
}

/** The generated export the result names (a schema's `ProductSchema`, a router, a component…). */
function mainExport(mod: Record<string, unknown>, name: string): unknown {
  return mod[name] ?? Object.values(mod).find((v) => typeof v === 'function');
}

export async function runCase(c: Case, result: GenerateResult, typeErrors: string[]): Promise<Outcome> {
  const started = performance.now();
  const done = (verdict: Verdict, note?: string): Outcome => ({
    case: c,
    result,
    verdict,
    ...(note ? { note } : {}),
    ms: Math.round(performance.now() - started),
  });
  if (typeErrors.length > 0)
    return done('wrong', `does not type-check: ${typeErrors.slice(0, 3).join('; ')}`);
  if (result.kind === 'skeleton') {
    if (!result.code.startsWith('// Skeleton:')) return done('wrong', 'a skeleton that does not say so');
    if (c.kind === 'function') {
      const mod = await load(result.code, result.fileName);
      const fn = mod[result.name] as (...args: unknown[]) => unknown;
      try {
        await fn();
        return done('wrong', 'a skeleton function that returns a value');
      } catch (err) {
        if (!/skeleton/.test(String((err as Error).message))) return done('wrong', `threw ${String(err)}`);
      }
    }
    return done(
      'skeleton',
      c.expect === 'implemented' ? `expected an implementation: ${result.reason}` : undefined,
    );
  }
  if (c.expect === 'skeleton')
    return done('wrong', `claimed implemented (${result.reason}) for a task it cannot do`);
  if (!c.check) return done('implemented');
  try {
    const mod = await load(result.code, result.fileName);
    await c.check({ result, mod, main: mainExport(mod, result.name) });
    return done('implemented');
  } catch (err) {
    return done('wrong', err instanceof Error ? err.message.split('\n')[0] : String(err));
  }
}

/** Generate, type-check and check every case (TypeScript). */
export async function runCases(cases: Case[]): Promise<Outcome[]> {
  const results = cases.map((c) => generateFromTemplate(c.kind, c.description, 'typescript').result);
  const files = results.map((r, i) => ({ fileName: `${i}-${r.fileName}`, code: r.code }));
  const diagnostics = checkGenerated(files);
  const outcomes: Outcome[] = [];
  try {
    for (const [i, c] of cases.entries()) {
      outcomes.push(await runCase(c, results[i]!, diagnostics.get(files[i]!.fileName) ?? []));
    }
  } finally {
    cleanUp();
  }
  return outcomes;
}

/** The table of the benchmark, in Markdown. */
export function table(outcomes: Outcome[]): string {
  const kinds = ['function', 'component', 'api', 'schema'] as const;
  const rows = kinds.map((k) => {
    const of = outcomes.filter((o) => o.case.kind === k);
    const n = (v: Verdict) => of.filter((o) => o.verdict === v).length;
    return `| ${k} | ${of.length} | ${n('implemented')} | ${n('skeleton')} | ${n('wrong')} |`;
  });
  const n = (v: Verdict) => outcomes.filter((o) => o.verdict === v).length;
  return [
    '| kind | descriptions | implemented (checks pass) | honest skeleton | wrong |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows,
    `| **all** | **${outcomes.length}** | **${n('implemented')}** | **${n('skeleton')}** | **${n('wrong')}** |`,
  ].join('\n');
}
