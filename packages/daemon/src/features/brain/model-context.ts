import type { MemoryCell } from '@forge/shared';
import type { ModelMessage } from '../../capabilities/model/types.ts';
import { failureText, repairsText, type EngineAnswer } from './answers.ts';
import { commandText, type FileFacts, type ProjectFacts } from './facts.ts';

/** The context sent with a question stays under this many characters (about 1,500 tokens). */
export const MODEL_CONTEXT_LIMIT = 6_000;
/** Each section gets at most this share, so one long section (memory, scripts) cannot crowd out the rest. */
const SECTION_LIMIT = 1_800;
/** The records found for the question itself get the largest share: they are what the answer cites. */
const RETRIEVED_LIMIT = 2_400;

const clip = (text: string, limit: number): string =>
  text.length > limit ? `${text.slice(0, limit - 1)}…` : text;

const SYSTEM = [
  'You are BrainBot, the assistant inside Forge, a local workspace that builds, previews and repairs web projects.',
  "Answer the user's question briefly and concretely from the facts below: first the records Forge found for this",
  'question (about the project it names), then a summary of that project and what the user asked you to remember.',
  'Cite the facts you use as they are written (file:line, build id, time). Answer only about the project the facts',
  'name. When the facts do not hold the answer, begin with "I don\'t know" and say what would let you answer; never guess.',
  'Plain text, no markdown headings.',
].join(' ');

/**
 * What the model is told besides the question: the records the built-in engine found for the
 * question (with their file:line, build ids and times), a compact summary of the project the question
 * is about (blueprint, scripts, files, the last build with its diagnosis and repairs) and the memory
 * cells.
 */
export function modelContext(
  facts: ProjectFacts | null,
  files: FileFacts | null,
  cells: MemoryCell[],
  retrieved: EngineAnswer | null = null,
): string {
  const sections: string[] = [];
  if (retrieved) {
    sections.push(
      clip(
        retrieved.certainty === 'known'
          ? `Records found for this question:\n${retrieved.text}`
          : `Forge's records do not answer this question directly (${retrieved.needs ?? 'no record'}).`,
        RETRIEVED_LIMIT,
      ),
    );
  }
  if (!facts) sections.push('Project: none uploaded yet.');
  else {
    const bp = facts.blueprint;
    const project = [`Project: ${facts.name}`];
    if (bp) {
      project.push(
        `Kind: ${bp.kind}; framework: ${bp.framework}; package manager: ${bp.packageManager ?? 'none'}; app folder: ${bp.appDir}; output: ${bp.outputDir ?? 'none'}.`,
      );
      const commands = (['install', 'build', 'test', 'start'] as const)
        .filter((k) => bp[k])
        .map((k) => `${k}: ${commandText(bp[k])}`);
      if (commands.length) project.push(`Commands Forge runs: ${commands.join('; ')}.`);
      if (bp.node)
        project.push(`Node wanted: ${bp.node.wanted} (${bp.node.file}); machine has ${bp.node.current}.`);
    } else project.push('Not planned yet (never built).');
    sections.push(clip(project.join('\n'), SECTION_LIMIT));
    const scripts = Object.entries(facts.scripts);
    if (scripts.length) {
      sections.push(
        clip(`package.json scripts:\n${scripts.map(([k, v]) => `- ${k}: ${v}`).join('\n')}`, SECTION_LIMIT),
      );
    }
    if (files) {
      sections.push(
        clip(
          `Files (${files.files.length}${files.truncated ? '+' : ''}): ${files.files.slice(0, 80).join(', ')}`,
          SECTION_LIMIT,
        ),
      );
    }
    const last = facts.builds[0];
    if (last) {
      const build = [`Last build: ${last.id}, ${last.status}, started ${last.createdAt}.`];
      if (last.status !== 'succeeded' && last.status !== 'running' && last.status !== 'queued') {
        build.push(failureText(last));
      }
      const repairs = repairsText(last);
      if (repairs) build.push(repairs);
      sections.push(clip(build.join('\n'), SECTION_LIMIT));
    } else sections.push('Builds: none yet.');
  }
  if (cells.length) {
    sections.push(
      clip(
        `Remembered (memory cells):\n${cells.map((c) => `- ${c.key}: ${c.value}`).join('\n')}`,
        SECTION_LIMIT,
      ),
    );
  }
  return clip(sections.join('\n\n'), MODEL_CONTEXT_LIMIT);
}

/** The messages of one question: the system prompt with the context, then the question. */
export const modelMessages = (context: string, question: string): ModelMessage[] => [
  { role: 'system', content: `${SYSTEM}\n\nFacts:\n${context}` },
  { role: 'user', content: question },
];
