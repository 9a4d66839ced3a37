import crypto from 'node:crypto';
import { formatDuration, type Build, type ForgeChatItem, type ServerMessage } from '@forge/shared';
import { ForgeError } from '../../http/forge-error.ts';
import type { Logger } from '../../logging/logger.ts';
import type { AskContext } from '../brain/engine.ts';
import { failureText } from '../brain/engine.ts';
import type { Brain } from '../brain/brain.ts';
import { forgeStatusText, type OperationDeps } from '../assistant/operations.ts';
import { forgeChangesText } from '../assistant/changes.ts';
import type { CoreServices } from '../services.ts';
import { currentProject } from '../projects/projects.ts';
import { CHAT_HELP, parseChat, type ChatCommand } from './commands.ts';

type Role = ForgeChatItem['role'];

/** A streamed reply is sent at most this often (the last piece always goes out at once). */
export const STREAM_INTERVAL_MS = 100;

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

type Extra = { replyId?: string; final?: boolean; certainty?: 'known' | 'unknown' };
type ChatMessage = Extract<ServerMessage, { type: 'chat' }>;

/**
 * Where one request's lines go: every client (the shared Forge console), the asking connection
 * alone, or the HTTP answer when the request names no connected client.
 */
interface Conversation {
  say(chat: string, role: Role, extra?: Extra): void;
  /** The lines kept for the HTTP answer; null when they went over /ws. */
  readonly replies: ForgeChatItem[] | null;
}

/**
 * ChatBot: POST /api/chat lines answered as `chat` messages: build, fix and status by ChatBot,
 * `brain:` questions by BrainBot (streamed from a model). The user's own line goes first (the
 * sender's client matches it to the line it already shows), then the answer.
 *
 * Who sees them: a brain question and its answer are the asker's alone (they may hold memory cells
 * and project facts of a signed-in session), so they go to the asking connection (`clientId`) and
 * never to the others. A request that names no connected client gets its answer in the HTTP
 * response and nothing is broadcast. build, fix, status and help from a connected client are for
 * every client, as the console is shared.
 */
/** What ChatBot answers from: the assistant's operations, the builds, RepairBot and the sockets. */
export interface ChatDeps extends OperationDeps, Pick<CoreServices, 'repairs' | 'broadcast' | 'sendTo'> {
  brain: Brain;
  logger: Logger;
}

export function createChat(services: ChatDeps) {
  const { fleet, builds, repo, broadcast, brain, logger } = services;
  let closed = false;

  const message = (chat: string, role: Role, extra: Extra = {}): ChatMessage => ({
    type: 'chat',
    chat,
    role,
    timestamp: new Date().toISOString(),
    ...extra,
  });

  const everyone: Conversation = {
    say: (chat, role, extra) => {
      if (!closed) broadcast(message(chat, role, extra));
    },
    replies: null,
  };

  /** The asking connection alone, or null when it is not connected. */
  function toClient(clientId: string, first: ChatMessage): Conversation | null {
    if (!services.sendTo(clientId, first)) return null;
    return {
      say: (chat, role, extra) => {
        if (!closed) services.sendTo(clientId, message(chat, role, extra));
      },
      replies: null,
    };
  }

  /** Lines kept for the HTTP answer: a streamed reply keeps only its final text. */
  function overHttp(): Conversation {
    const replies: ForgeChatItem[] = [];
    return {
      say: (chat, role, extra = {}) => {
        if (extra.final === false) return;
        replies.push({
          role,
          message: chat,
          timestamp: new Date().toISOString(),
          ...(extra.certainty ? { certainty: extra.certainty } : {}),
        });
      },
      replies,
    };
  }

  /** When a build the chat started finishes, say how it went (and why it failed). */
  function follow(buildId: string, to: Conversation): void {
    // The HTTP answer has gone by then: its asker follows the build itself (GET /api/builds/:id).
    if (to.replies !== null) return;
    const run = builds.running(buildId);
    if (!run) return;
    void run.done.then(
      (build: Build) => to.say(outcomeText(build), 'forge'),
      (err: unknown) => logger.debug({ err, buildId }, 'chat could not follow a build'),
    );
  }

  function outcomeText(build: Build): string {
    const took = build.durationMs !== null ? ` in ${formatDuration(build.durationMs)}` : '';
    const head = `Build ${build.id} of ${build.projectName} ${build.status}${took}.`;
    if (build.status === 'succeeded') {
      return build.previewUrl ? `${head} Preview: ${build.previewUrl}` : head;
    }
    if (build.status === 'cancelled') return head;
    return `${head}\n${failureText(build)}`;
  }

  const noProject = 'There is no project yet: upload one (a ZIP) first.';

  function projectList(): string {
    const names = repo.projects().map((p) => p.name);
    return names.length ? ` Projects: ${names.join(', ')}.` : '';
  }

  function build(project: string | null, to: Conversation): string {
    const name = project ?? currentProject(repo);
    if (name === null) return noProject;
    try {
      const started = builds.startBuild(name, { noCache: false });
      follow(started.id, to);
      return `Building ${name}: build ${started.id}.`;
    } catch (err) {
      if (err instanceof ForgeError) {
        return err.code === 'PROJECT_NOT_FOUND' ? `${err.message}${projectList()}` : err.message;
      }
      throw err;
    }
  }

  async function fix(project: string | null, to: Conversation): Promise<{ text: string; ok: boolean }> {
    const name = project ?? currentProject(repo);
    if (name === null) return { text: noProject, ok: false };
    try {
      const result = await services.repairs.fixLatest(name);
      follow(result.buildId, to);
      return { text: result.message, ok: true };
    } catch (err) {
      if (err instanceof ForgeError) return { text: err.message, ok: false };
      throw err;
    }
  }

  /** Forge's status; when the operations' text is not available, a short one of our own. */
  async function status(asked: string | null): Promise<string> {
    try {
      return await forgeStatusText(services, asked);
    } catch (err) {
      logger.debug({ err: messageOf(err) }, 'forge status text unavailable; chat answers its own');
      const health = services.health.health();
      const load = builds.load;
      const bots = fleet.list();
      const failing = bots.filter((b) => b.status === 'error').map((b) => b.name);
      const project = asked ?? currentProject(repo);
      const last = project ? repo.list({ project, limit: 1 })[0] : undefined;
      return [
        `Forge ${health.version}, up ${formatDuration(health.uptimeMs)}.`,
        `Fleet: ${bots.length} bots, ${fleet.activeJobs} jobs running, ${fleet.queuedJobs} waiting${failing.length ? `; failed last job: ${failing.join(', ')}` : ''}.`,
        `Builds: ${load.running} running, ${load.queued} queued.`,
        project
          ? `Project: ${project}${last ? `, last build ${last.id} ${last.status}` : ', not built yet'}.`
          : 'Project: none yet.',
      ].join('\n');
    }
  }

  /** The brain's answer, streamed as it comes when a model writes it. */
  async function askBrain(question: string, ctx: AskContext, to: Conversation): Promise<void> {
    const replyId = `r-${crypto.randomBytes(6).toString('hex')}`;
    let streamed = false;
    let latest = '';
    let timer: NodeJS.Timeout | null = null;
    let lastSent = 0;
    const flush = () => {
      timer = null;
      lastSent = Date.now();
      to.say(latest, 'brain', { replyId, final: false });
    };
    const onDelta = (textSoFar: string) => {
      streamed = true;
      latest = textSoFar;
      if (timer) return;
      const wait = STREAM_INTERVAL_MS - (Date.now() - lastSent);
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    };
    try {
      const answer = await brain.ask(question, { ...ctx, onDelta });
      if (timer) clearTimeout(timer);
      const { certainty } = answer;
      to.say(answer.text, 'brain', streamed ? { replyId, final: true, certainty } : { certainty });
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  const summaries: Record<ChatCommand['kind'], string> = {
    build: 'started a build',
    fix: 'asked RepairBot to fix',
    status: 'answered status',
    changes: 'compared with the last green build',
    brain: 'passed a question to BrainBot',
    help: 'listed the commands',
  };

  /**
   * Answer one line (the user's line has been sent already). `asked`: the project the request names
   * (checked by the route); a project named in the line itself wins.
   */
  async function answer(q: string, ctx: AskContext, to: Conversation, asked: string | null): Promise<void> {
    const command = parseChat(q);
    const project =
      'project' in command ? (command.project ?? asked ?? currentProject(repo)) : (asked ?? null);
    try {
      await fleet.run(
        'ChatBot',
        { label: `chat: ${command.kind}`, ...(project ? { projectName: project } : {}) },
        async () => {
          switch (command.kind) {
            case 'build':
              to.say(build(command.project ?? asked, to), 'forge');
              return true;
            case 'fix': {
              const result = await fix(command.project ?? asked, to);
              to.say(result.text, 'forge');
              return result.ok;
            }
            case 'status':
              to.say(await status(asked), 'forge');
              return true;
            case 'changes':
              to.say(await forgeChangesText(services, project), 'forge');
              return true;
            case 'brain':
              await askBrain(command.question, asked ? { ...ctx, project: asked } : ctx, to);
              return true;
            case 'help':
              to.say(CHAT_HELP, 'forge');
              return true;
          }
        },
        {
          slot: false,
          summary: (ok) => `${summaries[command.kind]}${ok ? '' : ' (it could not)'}`,
        },
      );
    } catch (err) {
      logger.error({ err }, 'chat command failed');
      to.say(`Command failed: ${messageOf(err)}`, 'forge');
    }
  }

  return {
    /**
     * Send the user's line, then answer it: in the background over /ws when the request names a
     * connected client (`clientId`), else at once in the returned replies (see createChat).
     * `project`: the project the request names, checked by the route.
     */
    async receive(
      q: string,
      ctx: AskContext,
      opts: { clientId?: string | undefined; project?: string | null } = {},
    ): Promise<ForgeChatItem[] | undefined> {
      const asked = opts.project ?? null;
      const first = message(q, 'user');
      let to: Conversation | null = null;
      if (opts.clientId) {
        if (parseChat(q).kind === 'brain') to = toClient(opts.clientId, first);
        else {
          to = everyone;
          if (!closed) broadcast(first);
        }
      }
      if (to === null) {
        const http = overHttp();
        await answer(q, ctx, http, asked);
        return http.replies ?? [];
      }
      const conversation = to;
      setImmediate(() => void answer(q, ctx, conversation, asked));
      return undefined;
    },
    close(): void {
      closed = true;
    },
  };
}

export type Chat = ReturnType<typeof createChat>;
