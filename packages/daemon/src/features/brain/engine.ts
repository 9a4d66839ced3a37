import { formatSessionTime, type Build } from '@forge/shared';
import type { ModelClient } from '../../assistants/model/types.ts';
import type { MemoryService } from '../memory/service.ts';
import { commandText, fileFacts, projectFacts, type FactServices, type ProjectFacts } from './facts.ts';

/** What a question was about: the BrainBot card says it, never the question itself. */
export type Intent =
  | 'help'
  | 'status'
  | 'remember'
  | 'recall'
  | 'forget'
  | 'memories'
  | 'blueprint'
  | 'scripts'
  | 'files'
  | 'find-file'
  | 'builds'
  | 'guest'
  | 'unknown'
  | 'model';

export interface EngineAnswer {
  text: string;
  intent: Intent;
}

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
/** Files named in one answer. */
const MAX_LISTED = 10;

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
const FIND_FILE = /^(?:where(?:'s|\s+is|\s+are)|find|locate)\s+(?:the\s+)?(?:file\s+)?(.+)$/is;
const SCRIPTS =
  /\b(?:scripts?|commands?|how (?:do|can|should) i (?:build|run|start|test|install|deploy)|dev server)\b/;
const BUILDS = /\b(?:builds?|built|fail\w*|errors?|broken|break|went wrong|diagnos\w*|repair\w*|fix\w*)\b/;
const BLUEPRINT =
  /\b(?:blueprint|framework|package manager|kind of (?:project|app)|type of (?:project|app)|project type|what project|which project|output (?:dir|directory|folder)|stack|node version|apps?)\b/;
const FILES = /\b(?:files?|folders?|directories|structure|tree)\b/;

function ago(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  const days = Math.round(hours / 24);
  return `${days} days ago`;
}

const STATUS_WORDS: Record<Build['status'], string> = {
  queued: 'is waiting for a slot',
  running: 'is running',
  succeeded: 'succeeded',
  failed: 'failed',
  'timed-out': 'timed out',
  cancelled: 'was cancelled',
  interrupted: 'was interrupted by a daemon restart',
};

const isFailure = (b: Build) =>
  b.status === 'failed' || b.status === 'timed-out' || b.status === 'interrupted';

/** "src/App.tsx:12:5" */
const place = (file: string, line?: number, column?: number): string =>
  `${file}${line ? `:${line}${column ? `:${column}` : ''}` : ''}`;

/** Why a build failed: ScanBot's diagnosis when it made one, else the build's own error. */
export function failureText(build: Build): string {
  const d = build.diagnosis;
  if (d) {
    const lines = [`Cause: ${d.summary}${d.file ? ` (${place(d.file, d.line, d.column)})` : ''}`];
    if (d.suggestion) lines.push(`Suggestion: ${d.suggestion}`);
    return lines.join('\n');
  }
  const e = build.error;
  if (!e) return 'It left no error.';
  const lines = [`Error: ${e.message}`];
  if (e.firstLine && e.firstLine !== e.message) lines.push(`First error line: ${e.firstLine}`);
  if (e.location) lines.push(`At ${place(e.location.file, e.location.line, e.location.column)}`);
  if (e.probableCause) lines.push(`Likely cause: ${e.probableCause}`);
  return lines.join('\n');
}

export function repairsText(build: Build): string | null {
  if (build.repairs.length === 0) return null;
  return [
    `Repairs of ${build.id}:`,
    ...build.repairs.map(
      (r) => `- ${r.summary} (${r.status}${r.files.length ? `; ${r.files.join(', ')}` : ''})`,
    ),
  ].join('\n');
}

const NO_PROJECT =
  'There is no project yet: upload one (a ZIP) and I can tell you about its blueprint, files and builds.';

/**
 * The brain's built-in engine: answers from what Forge knows (the current project's blueprint,
 * scripts, files, builds with their diagnoses and repairs, and the memory cells), with no model and
 * no network, and says plainly what it cannot answer.
 */
export function createEngine({ services, memory, model, now }: EngineDeps) {
  const lookup = (key: string) => memory.find(key) ?? memory.find(withoutArticle(key));

  function help(ctx: AskContext): EngineAnswer {
    if (!ctx.authenticated) {
      return {
        intent: 'help',
        text:
          'You are a guest: I answer "help" and "status" only. To authenticate, send your greeting phrase, ' +
          'then your code phrase. Then ask me about the current project, its files and builds, or what to remember.',
      };
    }
    return {
      intent: 'help',
      text: [
        "I'm BrainBot. Ask me about the current project:",
        '- "what is the blueprint", "which framework", "what scripts": how Forge builds it',
        '- "how many files", "where is App.tsx": its files',
        '- "last build", "why did the build fail", "what did you repair": its builds, diagnoses and repairs',
        '- "remember <name> is <value>", "what is <name>", "forget <name>", "what do you remember": my memory',
        '- "status": this session and what I can reach',
        model
          ? `Anything else goes to the language model ${model.model}.`
          : 'Anything else needs a language model: set brain.provider in the Forge config.',
      ].join('\n'),
    };
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
    return { intent: 'status', text: lines.join('\n') };
  }

  async function remember(question: string): Promise<EngineAnswer> {
    const match = REMEMBER.exec(question.trim());
    if (!match)
      return { intent: 'remember', text: 'Tell me what to remember as: remember <name> is <value>.' };
    const key = cleanKey(match[1]!);
    const value = match[2]!.trim().replace(/(?<=\S)[.!]+$/, '');
    if (key === '' || value === '')
      return { intent: 'remember', text: 'Tell me what to remember as: remember <name> is <value>.' };
    if (key.length > MAX_KEY)
      return {
        intent: 'remember',
        text: `That name is too long to remember (${MAX_KEY} characters at most).`,
      };
    if (value.length > MAX_VALUE)
      return { intent: 'remember', text: `That is too long to remember (${MAX_VALUE} characters at most).` };
    const existing = memory.find(key);
    const cell = await memory.set(existing?.key ?? key, value);
    return {
      intent: 'remember',
      text: existing
        ? `Updated: ${cell.key} is ${cell.value} (it was ${existing.value}).`
        : `Remembered: ${cell.key} is ${cell.value}.`,
    };
  }

  async function forget(raw: string): Promise<EngineAnswer> {
    const key = cleanKey(raw);
    const cell = lookup(key);
    if (!cell) return { intent: 'forget', text: `I have nothing remembered as "${key}".` };
    await memory.delete(cell.key);
    return { intent: 'forget', text: `Forgotten: ${cell.key}.` };
  }

  function memories(): EngineAnswer {
    const cells = memory.list();
    if (cells.length === 0)
      return { intent: 'memories', text: 'I remember nothing yet. Teach me: remember <name> is <value>.' };
    const shown = cells.slice(0, 50);
    return {
      intent: 'memories',
      text: [
        `I remember ${cells.length} thing${cells.length === 1 ? '' : 's'}:`,
        ...shown.map((c) => `- ${c.key}: ${c.value}`),
        ...(cells.length > shown.length
          ? [`…and ${cells.length - shown.length} more (forge memory ls).`]
          : []),
      ].join('\n'),
    };
  }

  function blueprint(facts: ProjectFacts): EngineAnswer {
    const bp = facts.blueprint;
    if (!bp) {
      return {
        intent: 'blueprint',
        text: `Forge has not planned ${facts.name} yet: build it once (say "build" in the chat) and I can tell you how it builds.`,
      };
    }
    const kind = {
      'static-build': 'a site built to static files',
      static: 'a static site (served as is)',
      server: 'a server app',
      unknown: 'a project Forge does not know how to build',
    }[bp.kind];
    const lines = [
      `${facts.name} is ${kind}: framework ${bp.framework}${bp.packageManager ? `, package manager ${bp.packageManager}` : ''}.`,
    ];
    const commands = (
      [
        ['Install', bp.install],
        ['Build', bp.build],
        ['Test', bp.test],
        ['Start', bp.start],
      ] as const
    )
      .filter(([, argv]) => argv)
      .map(([label, argv]) => `${label}: ${commandText(argv)}`);
    if (commands.length) lines.push(commands.join('. ') + '.');
    if (bp.outputDir) lines.push(`Output folder: ${bp.outputDir}.`);
    if (bp.apps.length > 1) lines.push(`It holds ${bp.apps.length} apps; Forge builds ${bp.appDir}.`);
    if (bp.node) {
      lines.push(
        `Node: it asks for ${bp.node.wanted} (${bp.node.file}); this machine has ${bp.node.current}${bp.node.satisfied === false ? ', which does not satisfy it' : ''}.`,
      );
    }
    return { intent: 'blueprint', text: lines.join('\n') };
  }

  function scripts(facts: ProjectFacts): EngineAnswer {
    const entries = Object.entries(facts.scripts);
    const lines =
      entries.length > 0
        ? [
            `Scripts in ${facts.name}'s package.json:`,
            ...entries.slice(0, 30).map(([k, v]) => `- ${k}: ${v}`),
          ]
        : [`${facts.name} has no package.json scripts.`];
    const bp = facts.blueprint;
    if (bp) {
      const run = (
        [
          ['install', bp.install],
          ['build', bp.build],
          ['test', bp.test],
          ['start', bp.start],
        ] as const
      )
        .filter(([, argv]) => argv)
        .map(([label, argv]) => `${label} with ${commandText(argv)}`);
      if (run.length) lines.push(`Forge runs: ${run.join('; ')}.`);
    }
    return { intent: 'scripts', text: lines.join('\n') };
  }

  function builds(facts: ProjectFacts, question: string): EngineAnswer {
    const last = facts.builds[0];
    if (!last)
      return {
        intent: 'builds',
        text: `${facts.name} has not been built yet. Say "build" in the chat to build it.`,
      };
    const lines = [
      `The last build of ${facts.name} (${last.id}) ${STATUS_WORDS[last.status]} ${ago(last.endedAt ?? last.createdAt, now())}.`,
    ];
    if (isFailure(last)) lines.push(failureText(last));
    else if (/\b(?:fail\w*|errors?|broken|wrong|diagnos\w*)\b/.test(question)) {
      const failed = facts.builds.find(isFailure);
      if (failed) {
        lines.push(
          `The most recent failure was ${failed.id}, ${ago(failed.endedAt ?? failed.createdAt, now())}:`,
          failureText(failed),
        );
      } else lines.push('None of its recent builds failed.');
    }
    const repaired = facts.builds.find((b) => b.repairs.length > 0);
    const repairs = repaired ? repairsText(repaired) : null;
    if (repairs) lines.push(repairs);
    else if (/\brepair\w*|\bfix\w*/.test(question))
      lines.push('RepairBot has made no repairs to it recently.');
    return { intent: 'builds', text: lines.join('\n') };
  }

  async function files(facts: ProjectFacts): Promise<EngineAnswer> {
    const found = await fileFacts(services, facts.name);
    const top = found.files.filter((f) => !f.includes('/'));
    const text = [
      `${facts.name} has ${found.truncated ? 'at least ' : ''}${found.files.length} file${found.files.length === 1 ? '' : 's'} in ${found.folders} folder${found.folders === 1 ? '' : 's'} (node_modules, .git and the build output not counted).`,
      ...(top.length ? [`At the top: ${top.slice(0, 15).join(', ')}${top.length > 15 ? ', …' : ''}.`] : []),
    ].join('\n');
    return { intent: 'files', text };
  }

  async function findFile(facts: ProjectFacts, raw: string): Promise<EngineAnswer> {
    const name = cleanKey(raw).toLowerCase();
    const { files: all } = await fileFacts(services, facts.name);
    const base = (p: string) => p.slice(p.lastIndexOf('/') + 1).toLowerCase();
    let matches = all.filter(
      (p) => base(p) === name || p.toLowerCase() === name || p.toLowerCase().endsWith(`/${name}`),
    );
    const exact = matches.length > 0;
    if (!exact) matches = all.filter((p) => base(p).includes(name));
    if (matches.length === 0)
      return { intent: 'find-file', text: `There is no file named "${cleanKey(raw)}" in ${facts.name}.` };
    const listed = matches.slice(0, MAX_LISTED).join(', ');
    const more = matches.length > MAX_LISTED ? ` and ${matches.length - MAX_LISTED} more` : '';
    if (exact && matches.length === 1)
      return { intent: 'find-file', text: `${cleanKey(raw)} is at ${matches[0]}.` };
    return {
      intent: 'find-file',
      text: exact
        ? `There are ${matches.length} files named ${cleanKey(raw)}: ${listed}${more}.`
        : `No file is named exactly "${cleanKey(raw)}"; these names contain it: ${listed}${more}.`,
    };
  }

  function cannot(prefix: string | null): EngineAnswer {
    const can =
      'I can tell you about the current project (its blueprint, scripts and commands), its files ("how many files", "where is App.tsx"), ' +
      'its builds ("why did the build fail", with the diagnosis and repairs), and what you asked me to remember ' +
      '("remember X is Y", "what is X", "forget X", "what do you remember").';
    const lead = model
      ? "I can't answer that from what Forge knows."
      : "I can't answer that without a language model. Configure brain.provider (the URL and model of an OpenAI-compatible server such as a local Ollama) in the Forge config, or set FORGE_BRAIN_URL and FORGE_BRAIN_MODEL.";
    return { intent: 'unknown', text: [prefix, lead, can].filter(Boolean).join(' ') };
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
     * ("what is X" only when X is remembered). Null: a question for the model.
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
        if (cell) return { intent: 'recall', text: `${cell.key} is ${cell.value}.` };
      }
      return null;
    },

    /** Everything the engine knows; says plainly what it cannot answer. */
    async answer(question: string, ctx: AskContext): Promise<EngineAnswer> {
      const local = await this.local(question, ctx);
      if (local) return local;
      const q = normalize(question);
      const finding = FIND_FILE.exec(question.trim());
      const recall = RECALL.exec(question.trim());
      const asksProject = finding || SCRIPTS.test(q) || BUILDS.test(q) || BLUEPRINT.test(q) || FILES.test(q);
      if (asksProject) {
        const facts = projectFacts(services, ctx.project);
        if (!facts) return { intent: 'unknown', text: NO_PROJECT };
        if (finding) return findFile(facts, finding[1]!);
        if (SCRIPTS.test(q)) return scripts(facts);
        if (BUILDS.test(q)) return builds(facts, q);
        if (BLUEPRINT.test(q)) return blueprint(facts);
        return files(facts);
      }
      return cannot(recall ? `I don't remember anything as "${cleanKey(recall[1]!)}".` : null);
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;
