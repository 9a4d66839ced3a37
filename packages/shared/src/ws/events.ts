import { z } from 'zod';
import { Stage } from '../domain/stage.ts';
import { LogLevel } from '../domain/log.ts';
import { FileNode } from '../domain/files.ts';
import { BrainCertainty, BuildOutput, ForgeChatRole } from '../domain/entities.ts';
import { Settings } from '../domain/settings.ts';
import { BuildError, BuildStatus, CancelReason } from '../domain/builds.ts';
import { Diagnosis, Repair } from '../domain/assistants.ts';
import { TestsVerdict } from '../domain/tests-verdict.ts';
import { QueueKind, WorkerInfo } from '../domain/workers.ts';

/** The WebSocket path on the daemon's own host (docs/product.md#websocket-messages). */
export const WS_PATH = '/ws';

/** Fields any build message may carry (docs/product.md#websocket-messages). */
const buildContext = {
  /** Project the message is about. */
  projectName: z.string().optional(),
  /** Build stage at the time of the message (docs/product.md#build-states). */
  stage: Stage.optional(),
  /** Build the message belongs to. */
  buildId: z.string().optional(),
  /** ISO-8601 time the daemon sent it. */
  timestamp: z.string().optional(),
};

/** Where the lines of an output frame come from and where they are stored. */
const outputContext = {
  /** Bot whose command printed the lines. */
  botName: z.string().optional(),
  /**
   * Sequence number of the frame's first line in the build's stored log; the others follow one by
   * one. Absent when the lines are not stored (past the per-build cap, or a server app's output
   * after its build ended).
   */
  seq: z.number().int().min(1).optional(),
};

/**
 * Every message the daemon sends on /ws. One discriminated union; type names are the documented
 * ones (`build-output`, `build_complete`, …). Clients safeParse and drop what they do not know.
 */
export const ServerMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hello'),
    /** Daemon version. */
    version: z.string(),
    /** Id of this connection, for logs. */
    clientId: z.string(),
  }),
  z.object({
    type: z.literal('build-output'),
    /** One or more lines of stdout. */ output: z.string(),
    ...outputContext,
    ...buildContext,
  }),
  z.object({
    type: z.literal('build-error'),
    /** One or more lines of stderr. */ output: z.string(),
    ...outputContext,
    ...buildContext,
  }),
  z.object({
    type: z.literal('build-stage'),
    /** The stage the build entered. */
    stage: Stage,
    /** The build's status in that stage: the pair is always a state of the build machine. */
    status: BuildStatus,
    /** Where the build runs ("local" or a worker's name), once it has started. */
    worker: z.string().nullable().optional(),
    projectName: z.string().optional(),
    buildId: z.string().optional(),
    timestamp: z.string().optional(),
  }),
  z.object({
    type: z.literal('project-files-updated'),
    /** The new tree. */ fileStructure: z.array(FileNode),
    ...buildContext,
  }),
  z.object({
    type: z.literal('file-content-updated'),
    /** Project-relative path. */
    filePath: z.string(),
    content: z.string(),
    ...buildContext,
  }),
  z.object({
    type: z.literal('bot-assigned'),
    /** Bot taking the job. */ botName: z.string(),
    ...buildContext,
  }),
  z.object({ type: z.literal('rapid-build-start'), ...buildContext }),
  z.object({
    type: z.literal('build_complete'),
    /** What the build produced. */ buildOutput: BuildOutput,
    ...buildContext,
  }),
  z.object({
    type: z.literal('log'),
    /** Log entry id, when stored. */
    id: z.string().optional(),
    /** Sequence number in the build's stored log, when stored. */
    seq: z.number().int().min(1).optional(),
    botName: z.string(),
    message: z.string(),
    level: LogLevel,
    ...buildContext,
  }),
  z.object({
    type: z.literal('chat'),
    /** The chat text (for a reply still streaming: the whole text so far). */
    chat: z.string(),
    role: ForgeChatRole,
    timestamp: z.string().optional(),
    /**
     * Id of the reply: a streamed reply arrives as several messages with the same id, each holding
     * the text so far; the last has `final: true`. Absent on a one-piece message.
     */
    replyId: z.string().optional(),
    /** False while a streamed reply is still coming. */
    final: z.boolean().optional(),
    /** A brain answer's certainty (on its one-piece or final message): `unknown` is an "I don't know". */
    certainty: BrainCertainty.optional(),
  }),
  z.object({
    type: z.literal('bot-status'),
    /** Bot whose status changed. */
    botName: z.string(),
    status: z.string(),
    /** What it is doing now, if anything. */
    job: z.string().nullable().optional(),
  }),
  z.object({
    type: z.literal('build-finished'),
    buildId: z.string(),
    projectName: z.string(),
    /** Final status of the build. */
    status: BuildStatus,
    stage: Stage,
    previewUrl: z.string().nullable().optional(),
    cacheHit: z.boolean().optional(),
    /** Where it ran: "local" or a worker's name. */
    worker: z.string().nullable().optional(),
    /** Why it did not succeed. */
    error: BuildError.nullable().optional(),
    /** ScanBot's reading of the failure. */
    diagnosis: Diagnosis.nullable().optional(),
    /** Repairs made during the build, or proposed for it. */
    repairs: z.array(Repair).optional(),
    cancelReason: CancelReason.nullable().optional(),
    endedAt: z.string().optional(),
    durationMs: z.number().nonnegative().nullable().optional(),
    /** What its tests say (passed, failed, none, skipped), beside its status. */
    verdict: TestsVerdict.nullable().optional(),
  }),
  z.object({
    type: z.literal('preview-ready'),
    buildId: z.string(),
    projectName: z.string(),
    /**
     * Where the build's preview is served. Sent as soon as the preview is up, which is before the
     * build ends: tests and checks still run while it is served.
     */
    previewUrl: z.string(),
    timestamp: z.string().optional(),
  }),
  z.object({
    type: z.literal('family-chat'),
    /** A family chat message; sent only to connections signed in as family (ClientMessage family-auth). */
    message: z.object({ id: z.string(), from: z.string(), text: z.string(), at: z.string() }),
  }),
  z.object({
    type: z.literal('family-auth'),
    /** The answer to a connection's family-auth: signed in as `name`, or refused (null). */
    name: z.string().nullable(),
  }),
  z.object({
    type: z.literal('workers'),
    /** Scale-out: the queue in use and every worker the coordinator knows, sent when one changes. */
    queue: QueueKind,
    workers: z.array(WorkerInfo),
  }),
  z.object({ type: z.literal('settings-updated'), /** Settings after the change. */ settings: Settings }),
  z.object({ type: z.literal('pong'), /** Echo of the ping's id. */ id: z.string().optional() }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;
export type ServerMessageType = ServerMessage['type'];
export type ServerMessageOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;

/** Every message a client may send on /ws; the daemon parses each and answers bad ones with nothing. */
export const ClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping'), id: z.string().max(64).optional() }),
  /** Sign this connection in as family (the university's token), to get the family chat live; null signs out. */
  z.object({ type: z.literal('family-auth'), token: z.string().max(200).nullable() }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

/** docs/product.md#websocket-messages: non-JSON text on the socket is shown as a plain info line. */
export function parseServerFrame(
  text: string,
): { kind: 'message'; message: ServerMessage } | { kind: 'unknown'; value: unknown } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      kind: 'message',
      message: { type: 'log', botName: 'SYSTEM', level: 'info', message: text },
    };
  }
  const parsed = ServerMessage.safeParse(value);
  return parsed.success ? { kind: 'message', message: parsed.data } : { kind: 'unknown', value };
}
