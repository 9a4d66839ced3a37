import type { IncomingMessage } from 'node:http';
import type { Response } from 'express';
import { formatSessionTime, type BrainConfigResult, type BrainReply, type BrainStatus } from '@forge/shared';
import { ModelError } from '../../capabilities/model/types.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { readCookie } from '../../http/security.ts';
import type { Flags } from '../../store/flags.ts';
import type { MemoryService } from '../memory/service.ts';
import type { CoreServices } from '../services.ts';
import { hashCodePhrase, verifyCodePhrase } from './code-phrase.ts';
import { createEngine, type AskContext, type EngineAnswer, type Intent } from './engine.ts';
import { fileFacts, projectFacts, type FactServices } from './facts.ts';
import { modelContext, modelMessages } from './model-context.ts';
import { BRAIN_COOKIE, MAX_WRONG_CODES, createSessions, type BrainSession } from './sessions.ts';

/** The brain session's system notes (docs/product.md#live-state). */
export const AUTHENTICATED_REPLY = 'Authentication successful. Session established.';
export const EXPIRED_REPLY = 'Session expired. Please re-authenticate.';

/** Flags holding the user's greeting (text) and the scrypt hash of the code phrase. */
export const GREETING_FLAG = 'brain.greeting';
export const CODE_FLAG = 'brain.codeHash';
/** The code phrase is at least this long (BrainCodeBody), counted after trimming. */
const MIN_CODE_LENGTH = 8;

/** An answer of the brain, and where it came from. */
export interface BrainAnswer extends EngineAnswer {
  source: 'engine' | 'model' | 'fallback';
}

export interface AskOptions extends AskContext {
  /** Called with the whole text so far while a model streams its reply. */
  onDelta?: (textSoFar: string) => void;
}

/** The places a record answer quotes: build ids, repair ids and file:line. */
const CITATION = /\bb\d+-[0-9a-f]{4,}\b|\br_\d+\b|[\w@./-]+\.[a-z][\w]{0,5}:\d+(?::\d+)?/g;

/**
 * A model's answer that quotes none of the records it was given gets them named after it, so every
 * answer says where its facts are (the user can check them).
 */
export function withSources(text: string, retrieved: EngineAnswer): string {
  if (retrieved.certainty !== 'known') return text;
  const cites = [...new Set(retrieved.text.match(CITATION) ?? [])];
  if (cites.length === 0 || cites.some((c) => text.includes(c))) return text;
  return `${text}\n(From Forge's records: ${cites.slice(0, 6).join(', ')}.)`;
}

const sameGreeting = (a: string, b: string): boolean =>
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

const minutesText = (ms: number): string => {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

const SUMMARIES: Record<Intent, string> = {
  help: 'told how to ask',
  status: 'answered status',
  remember: 'remembered a memory cell',
  recall: 'recalled a memory cell',
  forget: 'forgot a memory cell',
  memories: 'listed the memory cells',
  projects: 'listed the projects',
  blueprint: "described the project's blueprint",
  scripts: "listed the project's scripts",
  files: "described the project's files",
  'find-file': 'found a file',
  builds: "explained the project's builds",
  build: 'explained one build',
  failure: "explained the project's last failure",
  tests: "reported the project's tests",
  repairs: "listed RepairBot's repairs",
  logs: "quoted a build's log",
  steps: "listed a build's steps",
  dependencies: "listed the project's dependencies",
  code: "searched the project's code",
  bot: 'told what a bot did',
  changes: 'compared the last failed build with the last green one',
  guest: 'told a guest what it may ask',
  unknown: 'said it does not know',
  model: 'answered with the model',
};

export interface BrainDeps extends FactServices, Pick<CoreServices, 'fleet' | 'logger' | 'model'> {
  /** The greeting and the code phrase's hash are kept among the daemon's flags. */
  flags: Flags;
  /** The memory cells, shared with the memory routes. */
  memory: MemoryService;
  /** How long a signed-in brain session lasts (brain.sessionMinutes). */
  sessionMinutes: number;
  now: () => number;
}

/**
 * BrainBot: the handshake (greeting, then code phrase), sessions and answers. One per app: the brain
 * and chat routes are both given the one app.ts makes, so they share its sessions.
 */
export function createBrain(deps: BrainDeps) {
  const { flags, memory, now, sessionMinutes, model, fleet, logger } = deps;
  const services: FactServices = deps;
  const sessions = createSessions(now);
  const engine = createEngine({ services, memory, model, now });
  /** Model calls in flight, aborted when the daemon stops. */
  const inflight = new Set<AbortController>();

  const sessionOf = (req: IncomingMessage): BrainSession | null =>
    sessions.get(readCookie(req.headers.cookie, BRAIN_COOKIE));

  const configResult = (): BrainConfigResult => ({
    ok: true,
    greetingSet: flags.text(GREETING_FLAG) !== null,
    codeSet: flags.text(CODE_FLAG) !== null,
  });

  function setupReply(greetingSet: boolean, codeSet: boolean): string {
    if (!greetingSet && !codeSet) {
      return (
        'The brain has no greeting or code phrase yet. Set them on the machine running Forge: ' +
        'forge brain set-greeting "<text>", then forge brain set-code (it asks for the code phrase and keeps only a hash).'
      );
    }
    return greetingSet
      ? 'The brain has no code phrase yet. Set it on the machine running Forge with: forge brain set-code'
      : 'The brain has no greeting yet. Set it on the machine running Forge with: forge brain set-greeting "<text>"';
  }

  async function askModel(question: string, options: AskOptions): Promise<BrainAnswer> {
    // The model is given what the records say about the question's own subject: the project it
    // names (not the selected one), and the facts the built-in engine found, to cite.
    const retrieved = await engine.records(question, options);
    if (retrieved.certainty === 'unknown' && retrieved.project === null) {
      // A project or build the question names that Forge does not hold: no model can answer about it.
      return { ...retrieved, source: 'engine' };
    }
    const facts = projectFacts(services, retrieved.project ?? options.project);
    const files = facts ? await fileFacts(services, facts.name).catch(() => null) : null;
    const context = modelContext(facts, files, memory.list(), retrieved);
    const controller = new AbortController();
    inflight.add(controller);
    try {
      const text = await model!.complete({
        messages: modelMessages(context, question),
        ...(options.onDelta ? { onDelta: options.onDelta } : {}),
        signal: controller.signal,
        temperature: 0.3,
        maxTokens: 1_024,
      });
      return {
        text: withSources(text, retrieved),
        intent: 'model',
        source: 'model',
        // The model is told to say "I don't know" when the facts do not hold the answer.
        certainty: /^\s*I don'?t know\b/i.test(text) ? 'unknown' : 'known',
        ...(facts ? { project: facts.name } : {}),
      };
    } catch (err) {
      const reason =
        err instanceof ModelError ? err.message : `unexpected failure (${(err as Error).message})`;
      logger.warn(
        { model: model!.model, url: model!.url, err: reason },
        'brain model unreachable; answered built-in',
      );
      const builtIn = retrieved;
      return {
        ...builtIn,
        text: `${builtIn.text}\n(The language model was unreachable: ${reason} This is Forge's built-in answer.)`,
        source: 'fallback',
      };
    } finally {
      inflight.delete(controller);
    }
  }

  const brain = {
    memory,

    /** Whether the request carries the cookie of an authenticated, unexpired session. */
    isAuthenticated(req: IncomingMessage): boolean {
      return sessions.isAuthenticated(sessionOf(req));
    },

    /** Who the request is, for `ask`. */
    contextOf(req: IncomingMessage): AskContext {
      const session = sessionOf(req);
      return {
        authenticated: sessions.isAuthenticated(session),
        sessionRemaining: sessions.remaining(session),
      };
    },

    status(req: IncomingMessage): BrainStatus {
      const session = sessionOf(req);
      const authenticated = sessions.isAuthenticated(session);
      return {
        authenticated,
        sessionTimeRemaining: sessions.remaining(session),
        // The cells are the authenticated user's: a guest is not told how many there are.
        memoryCellCount: authenticated ? memory.count() : 0,
      };
    },

    setGreeting(greeting: string): Promise<BrainConfigResult> {
      return fleet.run(
        'BrainBot',
        { label: 'set greeting' },
        async () => {
          const code = flags.text(CODE_FLAG);
          if (code && (await verifyCodePhrase(greeting.trim(), code))) {
            throw new ForgeError('VALIDATION_FAILED', 'The greeting must differ from the code phrase.');
          }
          flags.set(GREETING_FLAG, greeting.trim());
          return configResult();
        },
        { slot: false, summary: () => 'stored a new greeting' },
      );
    },

    setCode(code: string): Promise<BrainConfigResult> {
      return fleet.run(
        'BrainBot',
        { label: 'set code phrase' },
        async () => {
          const phrase = code.trim();
          if (phrase.length < MIN_CODE_LENGTH) {
            throw new ForgeError(
              'VALIDATION_FAILED',
              `The code phrase must be at least ${MIN_CODE_LENGTH} characters long (spaces at the ends do not count).`,
            );
          }
          const greeting = flags.text(GREETING_FLAG);
          if (greeting && sameGreeting(greeting, phrase)) {
            throw new ForgeError('VALIDATION_FAILED', 'The code phrase must differ from the greeting.');
          }
          flags.set(CODE_FLAG, await hashCodePhrase(phrase));
          // Whoever knew the old phrase authenticates again.
          sessions.endAll();
          return configResult();
        },
        { slot: false, summary: () => 'stored a new code phrase (as a scrypt hash); sessions ended' },
      );
    },

    /**
     * Answer a question. A guest gets help and status only. With a model, the engine still answers
     * help, status and the memory commands; anything else goes to the model with the project's
     * context, and falls back to the engine (saying so) when the model fails.
     */
    ask(question: string, options: AskOptions): Promise<BrainAnswer> {
      return fleet.run(
        'BrainBot',
        { label: 'answer a question' },
        async (): Promise<BrainAnswer> => {
          if (!options.authenticated) {
            const answer = engine.guest(question, options);
            return answer
              ? { ...answer, source: 'engine' }
              : {
                  intent: 'guest',
                  source: 'engine',
                  certainty: 'known',
                  text:
                    'You are a guest: I answer "help" and "status" only. To authenticate, send your greeting phrase, ' +
                    'then your code phrase, in the brain chat.',
                };
          }
          const local = await engine.local(question, options);
          if (local) return { ...local, source: 'engine' };
          if (!model) return { ...(await engine.answer(question, options)), source: 'engine' };
          return askModel(question, options);
        },
        {
          slot: false,
          summary: (a) =>
            a.source === 'fallback'
              ? `${SUMMARIES[a.intent]} (model unreachable)`
              : a.source === 'model'
                ? `answered with ${model?.model ?? 'the model'}`
                : SUMMARIES[a.intent],
        },
      );
    },

    /** POST /api/brain/handshake: greeting, then code phrase, then answers (docs/product.md#live-state). */
    async handshake(
      req: IncomingMessage,
      res: Response,
      message: string,
      project?: string,
    ): Promise<BrainReply> {
      let session = sessionOf(req);
      if (!session) {
        const created = sessions.create();
        session = created.session;
        res.cookie(BRAIN_COOKIE, created.token, { httpOnly: true, sameSite: 'strict', path: '/api' });
      }
      const reply = (text: string, authenticated = false, sessionExpired = false): BrainReply => ({
        reply: text,
        authenticated,
        sessionExpired,
      });
      /** An answer to a question says whether it holds the answer, and what would let it if not. */
      const answered = (answer: BrainAnswer, authenticated: boolean): BrainReply => ({
        ...reply(answer.text, authenticated),
        certainty: answer.certainty,
        ...(answer.needs ? { needs: answer.needs } : {}),
      });
      if (sessions.expired(session)) return reply(EXPIRED_REPLY, false, true);
      const text = message.trim();
      const greeting = flags.text(GREETING_FLAG);
      const code = flags.text(CODE_FLAG);

      if (sessions.isAuthenticated(session)) {
        if (greeting && sameGreeting(greeting, text)) {
          return reply(
            `You are already authenticated: ${formatSessionTime(sessions.remaining(session))} left in this session.`,
            true,
          );
        }
        const answer = await brain.ask(text, {
          authenticated: true,
          sessionRemaining: sessions.remaining(session),
          ...(project ? { project } : {}),
        });
        return answered(answer, true);
      }

      const guest: AskContext = { authenticated: false, sessionRemaining: 0 };
      const guestAnswer = engine.guest(text, guest);
      if (guestAnswer) return answered(await brain.ask(text, guest), false);
      if (!greeting || !code) return reply(setupReply(greeting !== null, code !== null));

      if (sameGreeting(greeting, text)) {
        session.state = 'awaiting-code';
        return reply('Hello. Now send your code phrase.');
      }
      if (session.state !== 'awaiting-code') {
        return reply(
          'I answer guests with "help" and "status" only. Start with your greeting phrase, then send your code phrase.',
        );
      }
      return fleet.run(
        'BrainBot',
        { label: 'check code phrase' },
        async () => {
          const wait = sessions.lockedFor(session);
          if (wait > 0) {
            return reply(`Too many wrong code phrases. Wait ${minutesText(wait)} before trying again.`);
          }
          if (await verifyCodePhrase(text, code)) {
            sessions.authenticate(session, sessionMinutes);
            return reply(AUTHENTICATED_REPLY, true);
          }
          sessions.wrongCode(session);
          const locked = sessions.lockedFor(session);
          const left = MAX_WRONG_CODES - session.wrongCodes.length;
          return reply(
            locked > 0
              ? `That is not the code phrase. Too many wrong code phrases: wait ${minutesText(locked)} before trying again.`
              : `That is not the code phrase. You are still a guest (${left} ${left === 1 ? 'try' : 'tries'} left before a wait).`,
          );
        },
        {
          slot: false,
          summary: (r) => (r.authenticated ? 'authenticated a session' : 'refused a code phrase'),
        },
      );
    },

    close(): void {
      for (const controller of inflight) controller.abort();
      inflight.clear();
    },
  };
  return brain;
}

export type Brain = ReturnType<typeof createBrain>;
