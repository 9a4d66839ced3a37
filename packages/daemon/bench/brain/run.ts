import type { BrainCase } from './questions.ts';
import type { FixtureIds } from './fixture.ts';

export const FIXTURE_PROJECTS = ['shop', 'broken-all', 'broken-dep', 'api-server', 'notes'] as const;

/** How one question went. */
export type BrainVerdict =
  'right' | 'honest' | 'wrong-project' | 'missing-facts' | 'false-unknown' | 'false-known';

export interface BrainOutcome {
  case: BrainCase;
  question: string;
  reply: string;
  certainty: 'known' | 'unknown' | undefined;
  verdict: BrainVerdict;
  note?: string;
}

export type Ask = (
  question: string,
  selected: string | null,
) => Promise<{ reply: string; certainty?: 'known' | 'unknown' }>;

const word = (name: string) =>
  new RegExp(`(?<![\\w-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'i');

/** The question with the fixture's build ids put in ("{shopOld}" → "b1-3fa9c1"). */
export const questionOf = (c: BrainCase, ids: FixtureIds): string =>
  c.question.replace(/\{(\w+)\}/g, (_, key: string) => ids[key as keyof FixtureIds] ?? key);

/** Judge one answer: about the right project, with the expected facts and certainty. */
export function judge(
  c: BrainCase,
  ids: FixtureIds,
  reply: string,
  certainty: 'known' | 'unknown' | undefined,
): Pick<BrainOutcome, 'verdict' | 'note'> {
  const idsOf: Record<string, string[]> = {
    shop: [ids.shopPass, ids.shopOld],
    'broken-all': [ids.brokenAll],
    'broken-dep': [ids.brokenDepFailed, ids.brokenDepFixed, ids.repairId],
    'api-server': [ids.apiTests],
    notes: [],
  };
  const expected = c.facts(ids);
  // An answer about no project in particular ("which projects", "no project named shopp: did you
  // mean shop?") may name projects; it must still quote none of their builds.
  for (const other of FIXTURE_PROJECTS) {
    if (other === c.about || expected.some((f) => word(other).test(f))) continue;
    if ((c.about !== null && word(other).test(reply)) || idsOf[other]!.some((id) => reply.includes(id))) {
      return { verdict: 'wrong-project', note: `mentions ${other}` };
    }
  }
  if (c.certainty === 'known' && certainty === 'unknown')
    return { verdict: 'false-unknown', note: reply.split('\n')[0] };
  if (c.certainty === 'unknown' && certainty !== 'unknown')
    return { verdict: 'false-known', note: reply.split('\n')[0] };
  if (c.certainty === 'unknown' && !/^I don't know\b/.test(reply)) {
    return { verdict: 'false-known', note: 'marked unknown but does not say "I don\'t know"' };
  }
  const missing = expected.filter((f) => !reply.includes(f));
  if (missing.length)
    return { verdict: 'missing-facts', note: `missing ${missing.map((m) => JSON.stringify(m)).join(', ')}` };
  return { verdict: c.certainty === 'known' ? 'right' : 'honest' };
}

export async function runBrainCases(cases: BrainCase[], ids: FixtureIds, ask: Ask): Promise<BrainOutcome[]> {
  const outcomes: BrainOutcome[] = [];
  for (const c of cases) {
    const question = questionOf(c, ids);
    const { reply, certainty } = await ask(question, c.selected);
    outcomes.push({ case: c, question, reply, certainty, ...judge(c, ids, reply, certainty) });
  }
  return outcomes;
}

export interface BrainScore {
  total: number;
  right: number;
  honest: number;
  wrongProject: number;
  wrong: number;
  /** Right facts, or an honest "I don't know" where the records hold no answer, as a share of all. */
  score: number;
}

export function score(outcomes: BrainOutcome[]): BrainScore {
  const count = (v: BrainVerdict) => outcomes.filter((o) => o.verdict === v).length;
  const right = count('right');
  const honest = count('honest');
  const wrongProject = count('wrong-project');
  return {
    total: outcomes.length,
    right,
    honest,
    wrongProject,
    wrong: outcomes.length - right - honest - wrongProject,
    score: (right + honest) / outcomes.length,
  };
}

export function table(outcomes: BrainOutcome[]): string {
  const s = score(outcomes);
  const expectedKnown = outcomes.filter((o) => o.case.certainty === 'known').length;
  const rows = [
    ['Questions', String(s.total)],
    ['Answered with the right facts', `${s.right} of ${expectedKnown}`],
    ['Honest "I don\'t know" (the records hold no answer)', `${s.honest} of ${s.total - expectedKnown}`],
    ['About the wrong project', String(s.wrongProject)],
    ['Wrong or incomplete', String(s.wrong)],
    ['Score (right + honest)', `${(s.score * 100).toFixed(1)} %`],
  ];
  const width = Math.max(...rows.map(([a]) => a!.length));
  return [
    `| ${'Measure'.padEnd(width)} | Result |`,
    `| ${'-'.repeat(width)} | ------ |`,
    ...rows.map(([a, b]) => `| ${a!.padEnd(width)} | ${b} |`),
  ].join('\n');
}
