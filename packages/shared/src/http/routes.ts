import { z } from 'zod';
import { DsseEnvelope, ProvenanceKey } from '../domain/provenance.ts';
import { Rebuild, RebuildBody, RebuildParams, RebuildQuery } from '../domain/rebuild.ts';
import { BuildDiff } from '../domain/build-diff.ts';
import { ProjectHistory, RollbackBody, RollbackResult } from '../domain/history.ts';
import { BotActionBody, BotActionResponse, BotStatusResponse } from '../domain/bots.ts';
import {
  BrainHandshakeBody,
  BrainReply,
  BrainStatus,
  ChatAccepted,
  ChatBody,
  AppParams,
  DaemonConfigResponse,
  DeleteExtensionResponse,
  IntegratedApp,
  RollbackAppResponse,
  RollbackExtensionResponse,
  DynamicRoute,
  Extension,
  ExtensionParams,
  ForgeToggleBody,
  ForgeToggleResponse,
  HealthResponse,
  IntegrateBody,
  LoginBody,
  LoginResponse,
  MemoryCell,
  OkText,
  PackagePlatformResponse,
  PreviewInfo,
  SaveProjectBody,
  TextAnswer,
  UploadExtensionResponse,
  UploadResult,
} from '../domain/entities.ts';
import {
  FileContentQuery,
  FileContentResponse,
  FileCreateBody,
  FileDeleteBody,
  FileRenameBody,
  FileOpResponse,
  FileSaveBody,
  FileStructureResponse,
} from '../domain/files.ts';
import { Settings, SettingUpdate } from '../domain/settings.ts';
import { Blueprint } from '../domain/blueprint.ts';
import { TestsPolicy } from '../domain/tests-verdict.ts';
import {
  JobEventsBody,
  JobPreviewBody,
  JobPreviewResponse,
  JobStartBody,
  JobStartResponse,
  JobUploadQuery,
  WorkerHelloBody,
  WorkerOrders,
  WorkerQuery,
  WorkersResponse,
} from '../domain/workers.ts';
import {
  AuditEntry,
  FamilyAccount,
  FamilyAccountBody,
  FamilyChatBody,
  FamilyChatMessage,
  FamilyChatQuery,
  FamilyNameParams,
  FamilyOk,
  FamilyPasswordBody,
  FamilySession,
  LogoutResponse,
} from '../domain/family.ts';
import {
  BrainCodeBody,
  BrainConfigResult,
  BrainGreetingBody,
  FixBody,
  FixResult,
  GenerateBody,
  GenerateResult,
  MemoryDeleteResult,
  MemoryKeyParams,
  MemorySetBody,
  Repair,
  ScanReport,
  UndoRepairBody,
  UndoRepairResult,
} from '../domain/assistants.ts';
import {
  BotInfo,
  Build,
  BuildIdParams,
  BuildLogsQuery,
  BuildLogsResponse,
  BuildsQuery,
  CurrentProject,
  CurrentProjectBody,
  Project,
  ProjectParams,
  StartBuildBody,
} from '../domain/builds.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A multipart upload: the file travels in one named form field. */
export interface MultipartSpec {
  field: string;
}

export interface RouteContract {
  method: HttpMethod;
  /** Express-style path; `:name` segments are filled from `params`. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  multipart?: MultipartSpec;
  /** JSON answer schema; `'binary'` for a streamed download. */
  response: z.ZodType | 'binary';
  /** One line for docs/protocol.md. */
  summary: string;
}

const defineRoutes = <T extends Record<string, RouteContract>>(table: T): T => table;

/** `?project=`: the project the answer is about; without it, the current (last chosen) project. */
const ProjectQuery = z.object({ project: z.string().optional() });

/**
 * The route table: every REST call of docs/product.md#http-calls plus the daemon's own. The daemon registers
 * from it; clients call routes by name. No path string is written twice.
 */
export const routes = defineRoutes({
  health: {
    method: 'GET',
    path: '/api/health',
    response: HealthResponse,
    summary: 'Liveness and version of the daemon.',
  },
  config: {
    method: 'GET',
    path: '/api/config',
    response: DaemonConfigResponse,
    summary:
      'The configuration the running daemon uses (config file + environment + command line); tokens, API keys and URL passwords shown as ***.',
  },
  getSettings: { method: 'GET', path: '/api/settings', response: Settings, summary: 'The current settings.' },
  updateSetting: {
    method: 'POST',
    path: '/api/settings',
    body: SettingUpdate,
    response: Settings,
    summary: 'Change one known setting; answers the settings after the change.',
  },
  botStatus: {
    method: 'GET',
    path: '/api/bots/status',
    response: BotStatusResponse,
    summary: 'Bot activity for the nav badge (polled every 5 s).',
  },
  botBuild: {
    method: 'POST',
    path: '/api/bots/build',
    body: BotActionBody,
    response: BotActionResponse,
    summary: "Run a bot's job on the current project.",
  },
  botFix: {
    method: 'POST',
    path: '/api/bots/fix',
    body: BotActionBody,
    response: BotActionResponse,
    summary: "Retry a bot's last failed job.",
  },
  upload: {
    method: 'POST',
    path: '/api/upload',
    query: z.object({
      rapid: z.string().optional(),
      noCache: z.string().optional(),
      /** The app folder to build in a repository of several (empty: let Forge pick again). */
      app: z.string().optional(),
      /** What the tests mean for the build's verdict: required, optional or skip (default: the forge config's, else required). */
      tests: TestsPolicy.optional(),
    }),
    multipart: { field: 'file' },
    response: UploadResult,
    summary: 'Upload a project ZIP (multipart field "file", at most 50MB).',
  },
  fileStructure: {
    method: 'GET',
    path: '/api/files/structure',
    query: ProjectQuery,
    response: FileStructureResponse,
    summary: 'File tree of the current project (refetched every 30 s).',
  },
  fileContent: {
    method: 'GET',
    path: '/api/files/content',
    query: FileContentQuery,
    response: FileContentResponse,
    summary: 'Text content of one project file.',
  },
  fileSave: {
    method: 'POST',
    path: '/api/files/save',
    body: FileSaveBody,
    response: FileOpResponse,
    summary: 'Write a project file atomically.',
  },
  fileDelete: {
    method: 'DELETE',
    path: '/api/files/delete',
    body: FileDeleteBody,
    response: FileOpResponse,
    summary: 'Delete a project file or folder.',
  },
  fileCreate: {
    method: 'POST',
    path: '/api/files/create',
    body: FileCreateBody,
    response: FileOpResponse,
    summary: 'Create a file or folder ({type, name, parentPath} or {path, content}).',
  },
  fileRename: {
    method: 'POST',
    path: '/api/files/rename',
    body: FileRenameBody,
    response: FileOpResponse,
    summary: 'Rename or move a file or folder inside the project.',
  },
  previewUrl: {
    method: 'GET',
    path: '/api/preview/url',
    query: ProjectQuery,
    response: PreviewInfo,
    summary: 'Address of the live preview, or null while none is served.',
  },
  extensions: {
    method: 'GET',
    path: '/api/extensions',
    response: z.array(Extension),
    summary: 'Installed extensions (polled every 5 s).',
  },
  deleteExtension: {
    method: 'DELETE',
    path: '/api/extensions/:name',
    params: ExtensionParams,
    response: DeleteExtensionResponse,
    summary: 'Uninstall an extension.',
  },
  rollbackExtension: {
    method: 'POST',
    path: '/api/extensions/:name/rollback',
    params: ExtensionParams,
    response: RollbackExtensionResponse,
    summary: 'Bring back the previous version of an extension (the current one is kept as previous).',
  },
  apps: {
    method: 'GET',
    path: '/api/apps',
    response: z.array(IntegratedApp),
    summary: 'Apps published by IntegrationBot, with the build each serves.',
  },
  rollbackApp: {
    method: 'POST',
    path: '/api/apps/:name/rollback',
    params: AppParams,
    response: RollbackAppResponse,
    summary: 'Serve the previously published build of an app again.',
  },
  uploadExtension: {
    method: 'POST',
    path: '/api/upload-extension',
    multipart: { field: 'zipfile' },
    response: UploadExtensionResponse,
    summary: 'Install an extension from a ZIP (multipart field "zipfile").',
  },
  packagePlatform: {
    method: 'POST',
    path: '/api/package-platform',
    response: PackagePlatformResponse,
    summary: 'Repackage the platform; the installer is then at /api/download/app.',
  },
  downloadApp: {
    method: 'GET',
    path: '/api/download/app',
    response: 'binary',
    summary: 'Download the packaged platform.',
  },
  forgeIntegrateLast: {
    method: 'POST',
    path: '/api/forge/integrate-last',
    query: ProjectQuery,
    response: TextAnswer,
    summary: 'Forge assistant: integrate the last build.',
  },
  forgeFixModules: {
    method: 'POST',
    path: '/api/forge/fix-modules',
    query: ProjectQuery,
    response: TextAnswer,
    summary: 'Forge assistant: repair missing modules.',
  },
  forgeBlueprint: {
    method: 'GET',
    path: '/api/forge/blueprint',
    query: ProjectQuery,
    response: TextAnswer,
    summary: 'Forge assistant: the blueprint of the project asked (default: the current one).',
  },
  forgeChanges: {
    method: 'GET',
    path: '/api/forge/changes',
    query: ProjectQuery,
    response: TextAnswer,
    summary:
      "Forge assistant: what changed since the project's last green build (its newest build compared with it).",
  },
  forgeWorkflow: {
    method: 'GET',
    path: '/api/forge/workflow',
    query: ProjectQuery,
    response: TextAnswer,
    summary: 'Forge assistant: the build workflow.',
  },
  forgeIssues: {
    method: 'GET',
    path: '/api/forge/issues',
    query: ProjectQuery,
    response: TextAnswer,
    summary: 'Forge assistant: scan for issues.',
  },
  forgeStatus: {
    method: 'GET',
    path: '/api/forge/status',
    query: ProjectQuery,
    response: TextAnswer,
    summary: 'Forge assistant: status and health.',
  },
  forgeToggleState: {
    method: 'GET',
    path: '/api/forge/toggle',
    response: ForgeToggleResponse,
    summary: 'Whether auto-forge is on (rebuild the current project when its files change).',
  },
  forgeToggle: {
    method: 'POST',
    path: '/api/forge/toggle',
    body: ForgeToggleBody,
    response: ForgeToggleResponse,
    summary: 'Turn auto-forge on or off.',
  },
  brainStatus: {
    method: 'GET',
    path: '/api/brain/status',
    response: BrainStatus,
    summary: 'Brain session status (polled every 5 s).',
  },
  brainHandshake: {
    method: 'POST',
    path: '/api/brain/handshake',
    body: BrainHandshakeBody,
    response: BrainReply,
    summary: 'Send a message to the brain.',
  },
  dynamicRoutes: {
    method: 'GET',
    path: '/api/dynamic-routes',
    response: z.array(DynamicRoute),
    summary: 'Routes added by extensions (polled every 10 s).',
  },
  integrate: {
    method: 'POST',
    path: '/api/integrate',
    body: IntegrateBody,
    response: OkText,
    summary: 'Integrate a finished build.',
  },
  saveProject: {
    method: 'POST',
    path: '/api/save-project',
    body: SaveProjectBody,
    response: OkText,
    summary: 'Save a build output as a ZIP on the machine.',
  },
  chat: {
    method: 'POST',
    path: '/api/chat',
    body: ChatBody,
    response: ChatAccepted,
    summary:
      'Send a Forge chat command; replies arrive over /ws to the asking client (clientId), else in the answer.',
  },
  login: {
    method: 'POST',
    path: '/api/login',
    body: LoginBody,
    response: LoginResponse,
    summary: 'University login; the token is stored as authToken.',
  },
  bots: {
    method: 'GET',
    path: '/api/bots',
    response: z.array(BotInfo),
    summary: 'Every bot: category, status, current job, jobs run, failures.',
  },
  builds: {
    method: 'GET',
    path: '/api/builds',
    query: BuildsQuery,
    response: z.array(Build),
    summary: 'Builds, newest first, optionally of one project.',
  },
  build: {
    method: 'GET',
    path: '/api/builds/:id',
    params: BuildIdParams,
    response: Build,
    summary: 'One build: stages with times, steps, blueprint, reports, result.',
  },
  buildLogs: {
    method: 'GET',
    path: '/api/builds/:id/logs',
    params: BuildIdParams,
    query: BuildLogsQuery,
    response: BuildLogsResponse,
    summary: 'Stored log lines of a build (page with `after`).',
  },
  startBuild: {
    method: 'POST',
    path: '/api/builds',
    body: StartBuildBody,
    response: Build,
    summary: 'Build an uploaded project again ("Start Build").',
  },
  workers: {
    method: 'GET',
    path: '/api/workers',
    response: WorkersResponse,
    summary: 'Scale-out: the queue in use (in-process or bullmq) and the workers the coordinator knows.',
  },
  workerHello: {
    method: 'POST',
    path: '/api/worker/hello',
    body: WorkerHelloBody,
    response: WorkerOrders,
    summary:
      '(forge worker) Heartbeat: who the worker is and what it runs; answered with orders (cancel, stop previews).',
  },
  workerJobStart: {
    method: 'POST',
    path: '/api/worker/jobs/:id/start',
    params: BuildIdParams,
    body: JobStartBody,
    response: JobStartResponse,
    summary:
      '(forge worker) A worker took the queued job of a build: run it (the record to continue) or skip it.',
  },
  workerJobSource: {
    method: 'GET',
    path: '/api/worker/jobs/:id/source',
    params: BuildIdParams,
    query: WorkerQuery,
    response: 'binary',
    summary:
      "(forge worker) The project's files as a ZIP (no node_modules, no output), for the build the worker runs.",
  },
  workerJobEvents: {
    method: 'POST',
    path: '/api/worker/jobs/:id/events',
    params: BuildIdParams,
    body: JobEventsBody,
    response: WorkerOrders,
    summary:
      '(forge worker) The build record, stored log lines and /ws messages since the last post; answered with orders.',
  },
  workerJobUpload: {
    method: 'POST',
    path: '/api/worker/jobs/:id/output',
    params: BuildIdParams,
    query: JobUploadQuery,
    multipart: { field: 'file' },
    response: z.object({ files: z.number().int().nonnegative() }),
    summary:
      '(forge worker) A ZIP (multipart field "file"): the build output (kind=output) or the project files a repair changed (kind=files).',
  },
  workerJobPreview: {
    method: 'POST',
    path: '/api/worker/jobs/:id/preview',
    params: BuildIdParams,
    body: JobPreviewBody,
    response: JobPreviewResponse,
    summary:
      "(forge worker) Serve the build's preview from the coordinator, or relay to the server app on the worker.",
  },
  cancelBuild: {
    method: 'POST',
    path: '/api/builds/:id/cancel',
    params: BuildIdParams,
    response: Build,
    summary: 'Cancel a queued or running build.',
  },
  projects: {
    method: 'GET',
    path: '/api/projects',
    response: z.array(Project),
    summary: 'Uploaded projects with their last build.',
  },
  currentProject: {
    method: 'GET',
    path: '/api/projects/current',
    response: CurrentProject,
    summary:
      'The current project: the one last chosen (upload, selector, forge use), what requests without a project act on.',
  },
  useProject: {
    method: 'POST',
    path: '/api/projects/current',
    body: CurrentProjectBody,
    response: CurrentProject,
    summary: 'Choose the current project (kept across restarts).',
  },
  projectBlueprint: {
    method: 'GET',
    path: '/api/projects/:name/blueprint',
    params: ProjectParams,
    response: Blueprint,
    summary: 'The build plan of an uploaded project, without building.',
  },
  planArchive: {
    method: 'POST',
    path: '/api/plan',
    multipart: { field: 'file' },
    response: Blueprint,
    summary: 'The build plan of a ZIP, without keeping or building it.',
  },
  downloadProject: {
    method: 'GET',
    path: '/api/projects/:name/download',
    params: ProjectParams,
    response: 'binary',
    summary: 'The project source as {projectName}.zip.',
  },
  downloadArtifact: {
    method: 'GET',
    path: '/api/projects/:name/artifact',
    params: ProjectParams,
    response: 'binary',
    summary: 'The build output as {projectName}.zip.',
  },
  buildArtifact: {
    method: 'GET',
    path: '/api/builds/:id/artifact',
    params: BuildIdParams,
    response: 'binary',
    summary:
      "A successful build's recorded artifact ZIP (reproducible, its SBOM inside), the subject of its provenance.",
  },
  buildSbom: {
    method: 'GET',
    path: '/api/builds/:id/sbom',
    params: BuildIdParams,
    response: 'binary',
    summary: "A successful build's CycloneDX 1.6 JSON SBOM (application/vnd.cyclonedx+json).",
  },
  buildProvenance: {
    method: 'GET',
    path: '/api/builds/:id/provenance',
    params: BuildIdParams,
    response: DsseEnvelope,
    summary: "A successful build's signed provenance: a DSSE envelope of an in-toto statement (SLSA v1).",
  },
  buildSource: {
    method: 'GET',
    path: '/api/builds/:id/source',
    params: BuildIdParams,
    response: 'binary',
    summary: 'The reproducible source ZIP a successful build was made from (what its provenance names).',
  },
  buildDiff: {
    method: 'GET',
    path: '/api/builds/:id/diff',
    params: BuildIdParams,
    response: BuildDiff,
    summary:
      'A failed build compared with the last successful build of its project: files, dependencies, toolchain, plan, environment names, and what the error points at.',
  },
  projectHistory: {
    method: 'GET',
    path: '/api/projects/:name/history',
    params: ProjectParams,
    response: ProjectHistory,
    summary:
      "A project's kept successful builds, newest first: digests, size, tests verdict, which one is current.",
  },
  rollback: {
    method: 'POST',
    path: '/api/projects/:name/rollback',
    params: ProjectParams,
    body: RollbackBody,
    response: RollbackResult,
    summary:
      'Make a kept build (default: the previous green one) the current preview and download, without rebuilding.',
  },
  provenanceKey: {
    method: 'GET',
    path: '/api/provenance/key',
    response: ProvenanceKey,
    summary: "This installation's Ed25519 public key, which signs every build's provenance.",
  },
  startRebuild: {
    method: 'POST',
    path: '/api/rebuilds',
    body: RebuildBody,
    response: Rebuild,
    summary:
      'Build a recorded source again (by its digest) with the recorded plan and toolchains, to compare with its artifact (forge verify --rebuild). Not a build of the project: no preview, no current output.',
  },
  rebuild: {
    method: 'GET',
    path: '/api/rebuilds/:id',
    params: RebuildParams,
    query: RebuildQuery,
    response: Rebuild,
    summary:
      'A verification rebuild: its status, digest and the files that differ (?wait=<s>: once finished).',
  },
  memoryCells: {
    method: 'GET',
    path: '/api/memory-cells',
    response: z.array(MemoryCell),
    summary: 'Memory cells of the university memory manager.',
  },
  memorySet: {
    method: 'PUT',
    path: '/api/memory-cells/:key',
    params: MemoryKeyParams,
    body: MemorySetBody,
    response: MemoryCell,
    summary: 'Create or change one memory cell.',
  },
  memoryDelete: {
    method: 'DELETE',
    path: '/api/memory-cells/:key',
    params: MemoryKeyParams,
    response: MemoryDeleteResult,
    summary: 'Forget one memory cell.',
  },
  brainGreeting: {
    method: 'POST',
    path: '/api/brain/greeting',
    body: BrainGreetingBody,
    response: BrainConfigResult,
    summary: "Set the brain's greeting phrase (the first message of a handshake).",
  },
  brainCode: {
    method: 'POST',
    path: '/api/brain/code',
    body: BrainCodeBody,
    response: BrainConfigResult,
    summary: "Set the brain's code phrase (stored only as a scrypt hash).",
  },
  buildFix: {
    method: 'POST',
    path: '/api/builds/:id/fix',
    params: BuildIdParams,
    body: FixBody,
    response: FixResult,
    summary: 'Apply the repairs proposed for a failed build, then build again.',
  },
  projectRepairs: {
    method: 'GET',
    path: '/api/projects/:name/repairs',
    params: ProjectParams,
    response: z.array(Repair),
    summary: "The project's repair journal, newest first.",
  },
  undoRepair: {
    method: 'POST',
    path: '/api/projects/:name/repairs/undo',
    params: ProjectParams,
    body: UndoRepairBody,
    response: UndoRepairResult,
    summary: 'Restore the files of the newest applied repairs (or of one repair by id).',
  },
  projectScan: {
    method: 'GET',
    path: '/api/projects/:name/scan',
    params: ProjectParams,
    response: ScanReport,
    summary: "ScanBot's scan of a project: undeclared imports, scripts, JSON, secrets, sizes, types.",
  },
  logout: {
    method: 'POST',
    path: '/api/logout',
    response: LogoutResponse,
    summary: 'Revoke the family token sent (it then answers 401).',
  },
  familyMe: {
    method: 'GET',
    path: '/api/family/me',
    response: FamilySession,
    summary: 'Who the family token belongs to, and when it expires (family token required).',
  },
  familyAccounts: {
    method: 'GET',
    path: '/api/family/accounts',
    response: z.array(FamilyAccount),
    summary: 'Family accounts (from this machine only: refused to browsers).',
  },
  familyAdd: {
    method: 'POST',
    path: '/api/family/accounts',
    body: FamilyAccountBody,
    response: FamilyOk,
    summary: 'Add a family account (from this machine only: refused to browsers).',
  },
  familyRemove: {
    method: 'DELETE',
    path: '/api/family/accounts/:name',
    params: FamilyNameParams,
    response: FamilyOk,
    summary: 'Remove a family account and end its sessions (from this machine only).',
  },
  familyPasswd: {
    method: 'PUT',
    path: '/api/family/accounts/:name/password',
    params: FamilyNameParams,
    body: FamilyPasswordBody,
    response: FamilyOk,
    summary: "Change a family account's password and end its sessions (from this machine only).",
  },
  familyChat: {
    method: 'GET',
    path: '/api/family/chat',
    query: FamilyChatQuery,
    response: z.array(FamilyChatMessage),
    summary: 'Family chat messages, oldest first (family token required).',
  },
  familyChatSend: {
    method: 'POST',
    path: '/api/family/chat',
    body: FamilyChatBody,
    response: FamilyChatMessage,
    summary: 'Send a family chat message; signed-in members get it live over /ws (family token required).',
  },
  familyAudit: {
    method: 'GET',
    path: '/api/family/audit',
    response: z.array(AuditEntry),
    summary: 'The audit log of family actions, newest first (family token required).',
  },
  generate: {
    method: 'POST',
    path: '/api/generate',
    body: GenerateBody,
    response: GenerateResult,
    summary: 'CodeGenBot: a component, API, function or schema from a description.',
  },
});

export type Routes = typeof routes;
export type RouteName = keyof Routes;

type Infer<T> = T extends z.ZodType ? z.input<T> : never;
type Out<T> = T extends z.ZodType ? z.output<T> : never;

/** What a caller passes for a route: params/query/body only where the route has them. */
export type RouteInput<N extends RouteName> = (Routes[N] extends { params: z.ZodType }
  ? { params: Infer<Routes[N]['params']> }
  : { params?: never }) &
  (Routes[N] extends { query: z.ZodType } ? { query?: Infer<Routes[N]['query']> } : { query?: never }) &
  (Routes[N] extends { body: z.ZodType } ? { body: Infer<Routes[N]['body']> } : { body?: never }) &
  (Routes[N] extends { multipart: MultipartSpec } ? { form: FormData } : { form?: never });

export type RouteResponse<N extends RouteName> = Routes[N]['response'] extends z.ZodType
  ? Out<Routes[N]['response']>
  : Uint8Array;

export { buildPath, withQuery } from './route-path.ts';
