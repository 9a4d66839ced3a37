import crypto from 'node:crypto';
import { formatDuration, type Build, type ForgeChatItem } from '@forge/shared';
import type { AppServices } from '../../app.ts';
import { ForgeError } from '../../http/forge-error.ts';
import type { Logger } from '../../logging/logger.ts';
import type { AskContext } from '../brain/engine.ts';
import { failureText } from '../brain/engine.ts';
import type { Brain } from '../brain/brain.ts';
import { forgeStatusText } from '../forge/operations.ts';
import { currentProject } from '../projects/routes.ts';
import { CHAT_HELP, parseChat, type ChatCommand } from './commands.ts';

type Role = ForgeChatItem['role'];

/** A streamed reply is sent at most this often (the last piece always goes out at once). */
export const STREAM_INTERVAL_MS = 100;

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * ChatBot: POST /api/chat lines answered over /ws `chat` messages. The user's own line is broadcast
 * first (every client shows it; the sender's matches it to the line it already shows), then the
 * answer: build, fix and status by ChatBot, `brain:` questions by BrainBot (streamed from a model).
 */
export function createChat(services: AppServices, brain: Brain, logger: Logger) {
  const { fleet, builds, repo, broadcast } = services;
  let closed = false;

  type Extra = { replyId?: string; final?: boolean };
  /** To every client, or (`to`: a connection's clientId) to that one alone while it is connected. */
  const say = (chat: string, role: Role, extra: Extra = {}, to: string | null = null) => {
    if (closed) return;
    const message = { type: 'chat' as const, chat, role, timestamp: new Date().toISOString(), ...extra };
    if (to === null) broadcast(message);
    else services.sendTo(to, message);
  };

  /** When a build the chat started finishes, say how it went (and why it failed). */
  function follow(buildId: string): void {
    const run = builds.running(buildId);
    if (!run) return;
    void run.done.then(
      (build: Build) => say(outcomeText(build), 'forge'),
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

  function build(project: string | null): string {
    const name = project ?? currentProject(repo);
    if (name === null) return noProject;
    try {
      const started = builds.startBuild(name, { noCache: false });
      follow(started.id);
      return `Building ${name}: build ${started.id}.`;
    } catch (err) {
      if (err instanceof ForgeError) {
        return err.code === 'PROJECT_NOT_FOUND' ? `${err.message}${projectList()}` : err.message;
      }
      throw err;
    }
  }

  async function fix(project: string | null): Promise<{ text: string; ok: boolean }> {
    const name = project ?? currentProject(repo);
    if (name === null) return { text: noProject, ok: false };
    try {
      const result = await services.repairs.fixLatest(name);
      follow(result.buildId);
      return { text: result.message, ok: true };
    } catch (err) {
      if (err instanceof ForgeError) return { text: err.message, ok: false };
      throw err;
    }
  }

  /** Forge's status; when the operations' text is not available, a short one of our own. */
  async function status(): Promise<string> {
    try {
      return await forgeStatusText(services);
    } catch (err) {
      logger.debug({ err: messageOf(err) }, 'forge status text unavailable; chat answers its own');
      const health = services.health.health();
      const load = builds.load;
      const bots = fleet.list();
      const failing = bots.filter((b) => b.status === 'error').map((b) => b.name);
      const project = currentProject(repo);
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
  async function askBrain(question: string, ctx: AskContext, to: string | null): Promise<void> {
    const replyId = `r-${crypto.randomBytes(6).toString('hex')}`;
    let streamed = false;
    let latest = '';
    let timer: NodeJS.Timeout | null = null;
    let lastSent = 0;
    const flush = () => {
      timer = null;
      lastSent = Date.now();
      say(latest, 'brain', { replyId, final: false }, to);
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
      say(answer.text, 'brain', streamed ? { replyId, final: true } : {}, to);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  const summaries: Record<ChatCommand['kind'], string> = {
    build: 'started a build',
    fix: 'asked RepairBot to fix',
    status: 'answered status',
    brain: 'passed a question to BrainBot',
    help: 'listed the commands',
  };

  /** Answer one line (the user's line has been sent already). */
  async function answer(q: string, ctx: AskContext, to: string | null): Promise<void> {
    const command = parseChat(q);
    const project = 'project' in command ? (command.project ?? currentProject(repo)) : null;
    try {
      await fleet.run(
        'ChatBot',
        { label: `chat: ${command.kind}`, ...(project ? { projectName: project } : {}) },
        async () => {
          switch (command.kind) {
            case 'build':
              say(build(command.project), 'forge');
              return true;
            case 'fix': {
              const result = await fix(command.project);
              say(result.text, 'forge');
              return result.ok;
            }
            case 'status':
              say(await status(), 'forge');
              return true;
            case 'brain':
              await askBrain(command.question, ctx, to);
              return true;
            case 'help':
              say(CHAT_HELP, 'forge');
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
      say(`Command failed: ${messageOf(err)}`, 'forge', {}, to);
    }
  }

  return {
    /**
     * Send the user's line, then answer it in the background. A signed-in session's brain question
     * and its answer go only to the connection that asked (`clientId`), when it says which: other
     * clients — a guest's tab among them — never see them. Everything else is for every client.
     */
    receive(q: string, ctx: AskContext, clientId?: string): void {
      const to = clientId && ctx.authenticated && parseChat(q).kind === 'brain' ? clientId : null;
      say(q, 'user', {}, to);
      setImmediate(() => void answer(q, ctx, to));
    },
    close(): void {
      closed = true;
    },
  };
}
