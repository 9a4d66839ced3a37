import { z } from 'zod';
import { Stage } from './stage.ts';
import { Settings } from './settings.ts';

export const HealthResponse = z.object({
  ok: z.boolean(),
  version: z.string(),
  uptimeMs: z.number().nonnegative(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

/** An extension's or integrated app's name: a lowercase slug, also its folder and route segment. */
export const ExtensionName = z
  .string()
  .min(1)
  .max(64)
  .regex(
    /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/,
    'must be lowercase letters, digits and dashes, e.g. "hello-panel"',
  );

/**
 * `forge-extension.json` at the root of an extension ZIP (docs/extensions.md). `route` is where the
 * workspace shows it (a path such as "/ext/hello"), `entry` the HTML file opened there.
 */
export const ExtensionManifest = z.strictObject({
  name: ExtensionName,
  displayName: z.string().trim().min(1).max(80),
  route: z
    .string()
    .max(100)
    .regex(/^\/[a-z0-9-]+(?:\/[a-z0-9-]+)*$/, 'must be a path such as "/ext/hello" (lowercase, dashes)'),
  description: z.string().max(500).default(''),
  version: z.string().regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/, 'must be a version such as "1.0.0"'),
  entry: z
    .string()
    .max(200)
    .regex(
      /^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._\-/]+\.html?$/,
      'must be an HTML file inside the ZIP, e.g. "index.html"',
    )
    .default('index.html'),
});
export type ExtensionManifest = z.infer<typeof ExtensionManifest>;

/**
 * Extension (docs/product.md#entities: name, displayName, route), plus where its files are served and what it
 * is.
 */
export const Extension = z.object({
  name: z.string(),
  displayName: z.string(),
  route: z.string(),
  /** Its entry page, on its own origin (never the daemon's). Null while its server cannot start. */
  url: z.string().nullable().optional(),
  version: z.string().optional(),
  description: z.string().optional(),
  installedAt: z.string().optional(),
  /** The version kept beside it, which a rollback brings back (null when there is none). */
  previousVersion: z.string().nullable().optional(),
});
export type Extension = z.infer<typeof Extension>;
export const UploadExtensionResponse = z.object({
  ok: z.literal(true),
  extension: Extension,
  /** The version it replaced, when this install upgraded it. */
  upgradedFrom: z.string().nullable().optional(),
});
export const ExtensionParams = z.object({ name: z.string().min(1).max(64) });
export const DeleteExtensionResponse = z.object({ ok: z.literal(true), name: z.string() });
/** POST /api/extensions/:name/rollback: the previous version is current again. */
export const RollbackExtensionResponse = z.object({
  ok: z.literal(true),
  extension: Extension,
  /** The version it replaced, now kept as the previous one (a second rollback returns to it). */
  rolledBackFrom: z.string(),
});

/** An app of the platform published by IntegrationBot (GET /api/apps). */
export const IntegratedApp = z.object({
  name: z.string(),
  /** Its route in the workspace, /apps/<name>. */
  path: z.string(),
  /** Where it is served (its own origin); null while its server is not up. */
  url: z.string().nullable(),
  /** The build whose output is published. */
  buildId: z.string(),
  /** The build published before it, kept for a rollback (null when there is none). */
  previousBuildId: z.string().nullable(),
  files: z.number().int(),
  integratedAt: z.string(),
});
export type IntegratedApp = z.infer<typeof IntegratedApp>;
export const AppParams = z.object({ name: z.string().min(1).max(64) });
/** POST /api/apps/:name/rollback: the previously published build is served again. */
export const RollbackAppResponse = z.object({
  ok: z.literal(true),
  app: IntegratedApp,
  /** The build it replaced, now kept as the previous one. */
  rolledBackFrom: z.string(),
});

/** Dynamic route (docs/product.md#entities). */
export const DynamicRoute = z.object({
  path: z.string(),
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  /** An installed extension or an integrated app. */
  kind: z.enum(['extension', 'app']).optional(),
  /** Where its page is served (its own origin), shown in a sandboxed frame at `path`. */
  url: z.string().nullable().optional(),
});
export type DynamicRoute = z.infer<typeof DynamicRoute>;

/** Assistant chat message (docs/product.md#entities). */
export const AssistantChatMessage = z.object({
  id: z.string(),
  type: z.enum(['bot', 'user']),
  content: z.string(),
  timestamp: z.string(),
});
export type AssistantChatMessage = z.infer<typeof AssistantChatMessage>;

/** Whether an answer holds what was asked (`known`) or says plainly that it does not (`unknown`). */
export const BrainCertainty = z.enum(['known', 'unknown']);
export type BrainCertainty = z.infer<typeof BrainCertainty>;
/** Brain chat message (docs/product.md#entities). */
export const BrainChatMessage = z.object({
  id: z.string(),
  type: z.enum(['user', 'brain', 'system']),
  message: z.string(),
  timestamp: z.string(),
  authenticated: z.boolean().optional(),
  sessionExpired: z.boolean().optional(),
  /** The answer's certainty (an "I don't know" is marked as such), with what would let it answer. */
  certainty: BrainCertainty.optional(),
  needs: z.string().optional(),
});
export type BrainChatMessage = z.infer<typeof BrainChatMessage>;

/** Brain status (docs/product.md#entities), polled every 5 s. */
export const BrainStatus = z.object({
  authenticated: z.boolean(),
  /** Milliseconds left in the session. */
  sessionTimeRemaining: z.number().nonnegative(),
  memoryCellCount: z.number().int().nonnegative(),
});
export type BrainStatus = z.infer<typeof BrainStatus>;
export const BrainHandshakeBody = z.object({
  message: z.string().trim().min(1),
  /** The project a signed-in question is about (default: the current project). */
  project: z.string().min(1).optional(),
});
/** Brain reply (docs/product.md#entities). */
export const BrainReply = z.object({
  reply: z.string(),
  authenticated: z.boolean(),
  sessionExpired: z.boolean(),
  /** Set on answers to a question (not on the handshake's own notes). */
  certainty: BrainCertainty.optional(),
  /** With `unknown`: what would let the brain answer ("a build of shop first", "a language model"). */
  needs: z.string().optional(),
});
export type BrainReply = z.infer<typeof BrainReply>;

export const ForgeChatRole = z.enum(['user', 'forge', 'brain']);
/** Forge chat item (docs/product.md#entities). */
export const ForgeChatItem = z.object({
  role: ForgeChatRole,
  message: z.string(),
  timestamp: z.string(),
  /** A brain answer's certainty: `unknown` is an "I don't know". */
  certainty: BrainCertainty.optional(),
});
export type ForgeChatItem = z.infer<typeof ForgeChatItem>;
export const ChatBody = z.object({
  q: z.string().trim().min(1),
  /**
   * The /ws connection that asks (its hello `clientId`): a signed-in brain session's question and
   * answer then go to it alone, not to every open client.
   */
  clientId: z.string().max(64).optional(),
  /** The project `build`, `fix`, `status` and brain questions are about (default: the current one). */
  project: z.string().min(1).optional(),
});
export const ChatAccepted = z.object({
  ok: z.literal(true),
  /**
   * The answer, when the request names no connected /ws client (`clientId`) to send it to: a reply
   * that has no session to go to is given here, never broadcast.
   */
  replies: z.array(ForgeChatItem).optional(),
});

/** Upload result (docs/product.md#entities), plus the id of the build it started. */
export const UploadResult = z.object({
  projectName: z.string(),
  builderBots: z.array(z.string()),
  /**
   * `success: true` means the ZIP was accepted and its build planned (or queued), not that the build
   * succeeded: the build's verdict comes with its end (`build-finished` on /ws, GET /api/builds/:id).
   */
  buildResult: z.object({ success: z.boolean(), hasPackageJson: z.boolean() }),
  buildId: z.string().optional(),
  /**
   * `running` when the build started at once (the archive is extracted and planned already);
   * `queued` when it waits for its turn (bot orchestration off, or every build slot busy): it is
   * extracted when it starts, and `hasPackageJson` is read from the archive's listing.
   */
  status: z.enum(['queued', 'running']).optional(),
  error: z.string().optional(),
});
export type UploadResult = z.infer<typeof UploadResult>;

/** Build output (docs/product.md#entities), carried by build_complete; zipData is only set when asked for. */
export const BuildOutput = z.object({
  projectName: z.string(),
  buildPath: z.string(),
  files: z.array(z.string()),
  zipData: z.string().optional(),
});
export type BuildOutput = z.infer<typeof BuildOutput>;

/** Preview info (docs/product.md#entities); url is null while no preview is being served. */
export const PreviewInfo = z.object({ url: z.string().nullable() });
export type PreviewInfo = z.infer<typeof PreviewInfo>;

/** Memory cell (docs/product.md#entities). */
export const MemoryCell = z.object({ key: z.string(), value: z.string(), ts: z.number() });
export type MemoryCell = z.infer<typeof MemoryCell>;

/** Live message (docs/product.md#entities): what the Live Development viewer keeps. */
export const LiveMessage = z.object({
  type: z.string(),
  projectName: z.string().optional(),
  stage: Stage.optional(),
  botName: z.string().optional(),
  output: z.string().optional(),
  buildOutput: BuildOutput.optional(),
  message: z.string().optional(),
  timestamp: z.string(),
});
export type LiveMessage = z.infer<typeof LiveMessage>;

/** Plain-text answers of the Forge assistant endpoints (their "text" answers, docs/product.md#http-calls). */
export const TextAnswer = z.object({ text: z.string() });
export type TextAnswer = z.infer<typeof TextAnswer>;

export const ForgeToggleBody = z.object({ active: z.boolean() });
export const ForgeToggleResponse = z.object({ active: z.boolean() });

export const IntegrateBody = z.object({
  projectName: z.string().min(1),
  buildPath: z.string().min(1),
  files: z.array(z.string()),
});
export const SaveProjectBody = z.object({ projectName: z.string().min(1), buildPath: z.string().min(1) });
export const OkText = z.object({
  ok: z.boolean(),
  text: z.string(),
  /** Integrate: the route the app is shown at, and where it is served. */
  path: z.string().optional(),
  url: z.string().optional(),
  /** Save: the ZIP written on this machine. */
  file: z.string().optional(),
});

export const PackagePlatformResponse = z.object({ status: z.string() });

export const LoginBody = z.object({ username: z.string().min(1), password: z.string().min(1) });
export const LoginResponse = z.object({ token: z.string() });

/** Merged daemon configuration as `forge config print` shows it (secrets redacted). */
export const DaemonConfigView = z.object({
  home: z.string(),
  host: z.string(),
  port: z.number().int(),
  allowedHosts: z.array(z.string()),
  accessToken: z.string().nullable(),
  logLevel: z.string(),
  configFile: z.string().nullable(),
  /** The brain's model provider (its key shown only as "***" when set) and session length. */
  brain: z.object({
    provider: z.object({ url: z.string(), model: z.string(), apiKey: z.string().nullable() }).nullable(),
    sessionMinutes: z.number().int(),
  }),
  /** Where build jobs run: in-process (default) or BullMQ on Redis (its URL, password hidden). */
  queue: z.object({ kind: z.enum(['in-process', 'bullmq']), url: z.string().nullable() }),
});
export type DaemonConfigView = z.infer<typeof DaemonConfigView>;

/** `GET /api/config`: the configuration the running daemon uses (port: the one it listens on). */
export const DaemonConfigResponse = DaemonConfigView.extend({
  /** The daemon's process id. */
  pid: z.number().int(),
  version: z.string(),
});
export type DaemonConfigResponse = z.infer<typeof DaemonConfigResponse>;

export { Settings };
