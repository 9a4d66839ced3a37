import { formatSessionTime } from '@forge/shared';
import type { ModelClient } from '../../capabilities/model/types.ts';
import type { MemoryService } from '../memory/service.ts';
import { STATUS_WORDS, ago, createRecordAnswers, known, unknown, type EngineAnswer } from './answers.ts';
import { fileFacts, projectFacts, projectNames, type FactServices } from './facts.ts';
import { parseSubject, type Subject } from './subject.ts';
import { changesAnswer } from './changes-answer.ts';

export type { Certainty, EngineAnswer, Intent } from './answers.ts';
export { failureText, repairsText } from './answers.ts';

/** Who is asking: the session, for status and for what a guest may ask. */
export interface AskContext {
  authenticated: boolean;
  /** Milliseconds left in the session (0 for a guest). */
  sessionRemaining: number;
  /** The project the question is about (a name the caller checked); absent: the current project. */
  project?: string | null;
}

export interface EngineDeps {
  services: FactServices;
  memory: MemoryService;
  model: ModelClient | null;
  now: () => number;
}

/** Keys and values the brain remembers are bounded like the memory routes' (MemoryKeyParams, MemorySetBody). */
const MAX_KEY = 200;
const MAX_VALUE = 10_000;

/** Lower case, no trailing punctuation or spaces: what the matchers read. */
const normalize = (text: string): string =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s?!.]+$/, '');

/** A key as written: no surrounding quotes or trailing punctuation. */
const cleanKey = (text: string): string =>
  text
    .trim()
    .replace(/[\s?!.,;]+$/, '')
    .replace(/^(["'`])(.*)\1$/, '$2')
    .trim();

const withoutArticle = (key: string): string => key.replace(/^(the|a|an|my|our)\s+/i, '');

const REMEMBER = /^(?:please\s+)?remember(?:\s+that)?\s+(.+?)(?:\s+(?:is|are)\s+|\s*[=:]\s*)(.+)$/is;
const REMEMBER_ANY = /^(?:please\s+)?remember\b/i;
const FORGET = /^(?:please\s+)?forget(?:\s+about)?\s+(.+)$/is;
const RECALL =
  /^(?:what(?:'s|\s+is|\s+are|\s+was|\s+were)|who(?:'s|\s+is)|recall|tell\s+me(?:\s+about)?|what\s+do\s+you\s+know\s+about)\s+(.+)$/is;
const MEMORIES =
  /^(?:memory|memories|what do you (?:remember|know)|what have you remembered|(?:list|show)(?: (?:your|the|all))? (?:memory|memories|memory cells))$/;
const HELP = /^(?:help|\?|what can you do|what can i ask|how does this work|commands)$/;
const STATUS = /^(?:status|how are you|are you there|health|session)$/;
const NO_PROJECT =
  "I don't know: there is no project yet. Upload one (a ZIP) and I can tell you about its plan, files, builds, tests and repairs.";
const UPLOAD_NEEDED = 'a project (upload a ZIP)';

/** What the engine reads from Forge's records, in the words a user can ask for it. */
const CAN =
  'I answer from Forge\'s records about a project (the selected one, or one you name: "the plan of shop"): ' +
  'its plan and decisions, scripts, dependencies, files and folders ("which files are in src?"), code ("where is the login handled?"), ' +
  "builds (by id too), steps, logs, tests, the last failure and RepairBot's repairs; and what you asked me to remember.";

/**
 * The brain's built-in engine: answers from Forge's records about the project the question names
 * (else the selected one) — its plan with evidence, builds, steps, logs, tests, repairs, files and
 * code — and from the memory cells, with no model and no network. What the records do not hold it
 * says it does not know, and what would let it answer.
 */
export function createEngine({ services, memory, model, now }: EngineDeps) {
  const lookup = (key: string) => memory.find(key) ?? memory.find(withoutArticle(key));
  const records = createRecordAnswers({ services, now });

  function help(ctx: AskContext): EngineAnswer {
    if (!ctx.authenticated) {
      return known(
        'help',
        'You are a guest: I answer "help" and "status" only. To authenticate, send your greeting phrase, ' +
          'then your code phrase. Then ask me about your projects, their files, builds, tests and repairs, or what to remember.',
      );
    }
    return known(
      'help',
      [
        'I\'m BrainBot. Ask me about the selected project, or name one ("… of shop"):',
        '- "what is the plan", "why pnpm", "what scripts", "which dependencies": how Forge builds it, with the evidence',
        '- "how many files", "which files are in src?", "where is App.tsx", "where is the login handled?", "what uses date-fns?": its files and code, with file:line',
        '- "last build", "what happened in b12-3fa9c1", "how long did install take", "show the logs": its builds',
        '- "why did the build fail", "how do the tests do", "what did RepairBot do": failures, tests and repairs',
        '- "what changed since it last worked?": the newest failed build against the last green one',
        '- "which projects are there": every project Forge holds',
        '- "remember <name> is <value>", "what is <name>", "forget <name>", "what do you remember": my memory',
        '- "status": this session and what I can reach',
        model
          ? `Anything else goes to the language model ${model.model}, with the facts I found.`
          : 'Anything else needs a language model: set brain.provider in the Forge config.',
      ].join('\n'),
    );
  }

  function status(ctx: AskContext): EngineAnswer {
    const lines = [
      ctx.authenticated
        ? `Brain: authenticated, ${formatSessionTime(ctx.sessionRemaining)} left in this session.`
        : 'Brain: guest (not authenticated).',
      model
        ? `Language model: ${model.model} at ${model.url}.`
        : 'Language model: none (built-in answers only).',
    ];
    if (ctx.authenticated) lines.push(`Memory: ${memory.count()} cells.`);
    const facts = projectFacts(services, ctx.project);
    if (!facts) lines.push('Project: none yet.');
    else {
      const last = facts.builds[0];
      lines.push(
        `Project: ${facts.name}${last ? `, last build ${last.id} ${STATUS_WORDS[last.status]} ${ago(last.endedAt ?? last.createdAt, now())}` : ', not built yet'}.`,
      );
    }
    return known('status', lines.join('\n'));
  }

  async function remember(question: string): Promise<EngineAnswer> {
    const ask = (text: string) => known('remember', text);
    const match = REMEMBER.exec(question.trim());
    if (!match) return ask('Tell me what to remember as: remember <name> is <value>.');
    const key = cleanKey(match[1]!);
    const value = match[2]!.trim().replace(/(?<=\S)[.!]+$/, '');
    if (key === '' || value === '') return ask('Tell me what to remember as: remember <name> is <value>.');
    if (key.length > MAX_KEY)
      return ask(`That name is too long to remember (${MAX_KEY} characters at most).`);
    if (value.length > MAX_VALUE)
      return ask(`That is too long to remember (${MAX_VALUE} characters at most).`);
    const existing = memory.find(key);
    const cell = await memory.set(existing?.key ?? key, value);
    return ask(
      existing
        ? `Updated: ${cell.key} is ${cell.value} (it was ${existing.value}).`
        : `Remembered: ${cell.key} is ${cell.value}.`,
    );
  }

  async function forget(raw: string): Promise<EngineAnswer> {
    const key = cleanKey(raw);
    const cell = lookup(key);
    if (!cell) return known('forget', `I have nothing remembered as "${key}".`);
    await memory.delete(cell.key);
    return known('forget', `Forgotten: ${cell.key}.`);
  }

  function memories(): EngineAnswer {
    const cells = memory.list();
    if (cells.length === 0)
      return known('memories', 'I remember nothing yet. Teach me: remember <name> is <value>.');
    const shown = cells.slice(0, 50);
    return known(
      'memories',
      [
        `I remember ${cells.length} thing${cells.length === 1 ? '' : 's'}:`,
        ...shown.map((c) => `- ${c.key}: ${c.value}`),
        ...(cells.length > shown.length
          ? [`…and ${cells.length - shown.length} more (forge memory ls).`]
          : []),
      ].join('\n'),
    );
  }

  function projectList(): EngineAnswer {
    const all = services.repo.projects();
    if (all.length === 0) return unknown(NO_PROJECT, UPLOAD_NEEDED, null);
    return known(
      'projects',
      [
        `Forge holds ${all.length} project${all.length === 1 ? '' : 's'}:`,
        ...all.map(
          (p) =>
            `- ${p.name}: ${p.lastBuild ? `last build ${p.lastBuild.id} ${STATUS_WORDS[p.lastBuild.status]} (${p.lastBuild.createdAt.slice(0, 19).replace('T', ' ')} UTC)` : 'not built yet'}`,
        ),
      ].join('\n'),
      null,
    );
  }

  /** Whether a word the question gives after "of/in/for" is something of the project (not a project). */
  async function placedInProject(project: string, word: string): Promise<boolean> {
    const facts = projectFacts(services, project);
    if (!facts) return false;
    const w = word.toLowerCase().replace(/\/+$/, '');
    const m = facts.manifest;
    if (
      m &&
      [...m.dependencies, ...m.devDependencies, ...m.peerDependencies, ...m.scripts].some(
        (e) => e.name.toLowerCase() === w,
      )
    )
      return true;
    if (facts.builds.some((b) => b.steps.some((st) => st.name === w))) return true;
    const { files } = await fileFacts(services, project).catch(() => ({ files: [] as string[] }));
    return files.some((f) => {
      const lower = f.toLowerCase();
      return lower === w || lower.startsWith(`${w}/`) || lower.includes(`/${w}/`) || lower.endsWith(`/${w}`);
    });
  }

  /**
   * What the records say about the question: its subject (project, build, bot, file, topic) found
   * first, then the answer from that subject's records. Never an answer about a project the question
   * did not mean: a project it names that Forge does not hold is an "I don't know".
   */
  async function fromRecords(question: string, ctx: AskContext, s: Subject): Promise<EngineAnswer> {
    if (s.topic === 'projects') return projectList();
    const names = projectNames(services);
    let build = null;
    let project: string | null = s.project;
    if (s.buildId) {
      build = services.repo.get(s.buildId);
      if (!build) {
        return unknown(
          `I don't know a build ${s.buildId}: Forge's records hold no build with that id.`,
          'a build id from "forge builds" or the builds list',
          null,
        );
      }
      if (project && project !== build.projectName) {
        return unknown(
          `I don't know how to answer that: build ${build.id} is a build of ${build.projectName}, not of ${project}.`,
          `the build id of a ${project} build, or a question about ${build.projectName}`,
          null,
        );
      }
      project = build.projectName;
    }
    const fallback = ctx.project ?? null;
    if (!project && s.named) {
      const base = projectFacts(services, fallback)?.name ?? null;
      const placed = base !== null && !s.namedAsProject ? await placedInProject(base, s.named) : false;
      if (!placed && (s.namedAsProject || looksLikeName(s.named, s.topic))) {
        const near = names.find((n) => editDistance(n.toLowerCase(), s.named!.toLowerCase()) <= 2);
        return unknown(
          `I don't know a project named "${s.named}".${near ? ` Did you mean ${near}?` : ''} ${names.length ? `Forge holds: ${names.join(', ')}.` : 'Forge holds no project yet.'}`,
          names.length ? 'the name of one of those projects' : UPLOAD_NEEDED,
          null,
        );
      }
    }
    const facts = projectFacts(services, project ?? fallback);
    if (!facts) return unknown(NO_PROJECT, UPLOAD_NEEDED, null);

    switch (s.topic) {
      case 'plan':
        return records.plan(facts, s);
      case 'scripts':
        return records.scripts(facts);
      case 'dependencies':
        // "what uses date-fns?" is the code's; "which version of express does it use?" the manifest's.
        return /\b(?:uses?|used|using|imports?|imported)\b/.test(s.rest) && !/\bversions?\b/.test(s.rest)
          ? records.code(facts, s)
          : records.dependencies(facts, s);
      case 'failure':
        return records.failure(facts, build);
      case 'tests':
        return records.tests(facts, build);
      case 'repairs':
        return records.repairs(facts, build);
      case 'logs':
        return records.logs(facts, build);
      case 'steps':
        return records.steps(facts, build, s);
      case 'builds':
        return records.builds(facts, build);
      case 'bot':
        return records.bot(facts, s.bot ?? 'BuildBot', build);
      case 'files':
        return records.files(facts, s);
      case 'find':
        return records.find(facts, s);
      case 'code':
        return records.code(facts, s);
      case 'changes':
        return changesAnswer(services, facts.name, build);
      default:
        // "tell me about broken-dep", "b12-3fa9c1?": the project's (or build's) builds in brief.
        if (build || ((s.project || s.named) && s.terms.length === 0)) return records.builds(facts, build);
        return cannot(question, facts.name);
    }
  }

  function cannot(question: string, project: string | null): EngineAnswer {
    const recall = RECALL.exec(question.trim());
    const asked = recall ? cleanKey(recall[1]!) : null;
    const lead = asked
      ? `I don't know: I have nothing remembered as "${asked}", and Forge's records${project ? ` of ${project}` : ''} do not answer it.`
      : `I don't know: Forge's records${project ? ` of ${project}` : ''} do not answer that.`;
    const needs = model
      ? 'a question about what Forge records (the model could not be used for this one)'
      : 'a language model: configure brain.provider (the URL and model of an OpenAI-compatible server such as a local Ollama) in the Forge config, or set FORGE_BRAIN_URL and FORGE_BRAIN_MODEL';
    const text = model
      ? `${lead} ${CAN}`
      : `${lead} A language model could: configure brain.provider (the URL and model of an OpenAI-compatible server such as a local Ollama) in the Forge config, or set FORGE_BRAIN_URL and FORGE_BRAIN_MODEL. ${CAN}`;
    return unknown(text, needs, project);
  }

  return {
    /** help and status: the only answers a guest gets; null for anything else. */
    guest(question: string, ctx: AskContext): EngineAnswer | null {
      const q = normalize(question);
      if (HELP.test(q)) return help(ctx);
      if (STATUS.test(q)) return status(ctx);
      return null;
    },

    /**
     * What the engine answers even when a model is configured: help, status and the memory commands
     * ("what is X" only when X is remembered). Null: a question for the records or the model.
     */
    async local(question: string, ctx: AskContext): Promise<EngineAnswer | null> {
      const q = normalize(question);
      if (HELP.test(q)) return help(ctx);
      if (STATUS.test(q)) return status(ctx);
      if (REMEMBER_ANY.test(q)) return remember(question);
      const forgetting = FORGET.exec(question.trim());
      if (forgetting) return forget(forgetting[1]!);
      if (MEMORIES.test(q)) return memories();
      const recall = RECALL.exec(question.trim());
      if (recall) {
        const cell = lookup(cleanKey(recall[1]!));
        if (cell) return known('recall', `${cell.key} is ${cell.value}.`);
      }
      return null;
    },

    /** The question taken apart (for the model's context and the benchmark). */
    subject(question: string): Subject {
      return parseSubject(question, projectNames(services));
    },

    /** The answer from Forge's records alone (what a model is given as facts). */
    records(question: string, ctx: AskContext): Promise<EngineAnswer> {
      return fromRecords(question, ctx, this.subject(question));
    },

    /** Everything the engine knows; says plainly what it does not. */
    async answer(question: string, ctx: AskContext): Promise<EngineAnswer> {
      const local = await this.local(question, ctx);
      if (local) return local;
      return this.records(question, ctx);
    },
  };
}

/**
 * Whether a word the question puts after "of/in/for" reads as a project's name ("broken-alll",
 * "shop2") rather than a word of the sentence: names carry a hyphen, digit, dot or underscore, or
 * stand where a record topic asks "of what".
 */
function looksLikeName(word: string, topic: Subject['topic']): boolean {
  if (/[-_.\d]/.test(word)) return true;
  return ['plan', 'tests', 'repairs', 'failure', 'logs', 'steps', 'builds', 'scripts'].includes(topic);
}

/** Levenshtein distance, for "did you mean" on a mistyped project name (names are short). */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

export type Engine = ReturnType<typeof createEngine>;
