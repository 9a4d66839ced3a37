import { z } from 'zod';
import { MAX_OPEN_FILE_LABEL, MAX_UPLOAD_LABEL } from './constants.ts';

/**
 * The permanent error catalogue. Codes are stable: never renamed or reused, only added.
 * Each says what happened and what to do (Astro's errors-data style).
 */
export const ERROR_CATALOGUE = {
  HOST_NOT_ALLOWED: {
    status: 403,
    message: 'This Host header is not allowed.',
    hint: 'Open Forge at http://localhost:<port> or http://127.0.0.1:<port>, or add the host to allowedHosts in forge.config.',
  },
  ORIGIN_NOT_ALLOWED: {
    status: 403,
    message: 'Requests from another origin are not allowed.',
    hint: 'Only pages served by this Forge daemon may change its state.',
  },
  TOKEN_REQUIRED: {
    status: 401,
    message: 'An access token is required.',
    hint: 'Send "Authorization: Bearer <token>" or open the URL printed by `forge open`.',
  },
  FAMILY_AUTH_REQUIRED: {
    status: 401,
    message: 'Family authentication required.',
    hint: 'Log in to the university (/login) and send the token as "Authorization: Bearer <token>".',
  },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid credentials' },
  TOO_MANY_ATTEMPTS: {
    status: 429,
    message: 'Too many failed logins. Try again later.',
    hint: 'Wait for the time in the Retry-After header.',
  },
  LOCAL_ONLY: {
    status: 403,
    message: 'Family accounts are managed from this machine, with the forge CLI.',
    hint: 'Use: forge family add|ls|rm|passwd',
  },
  FAMILY_ACCOUNT_EXISTS: { status: 409, message: 'A family account with that name already exists.' },
  FAMILY_ACCOUNT_NOT_FOUND: {
    status: 404,
    message: 'There is no family account with that name.',
    hint: 'List them with: forge family ls',
  },
  NOT_FOUND: { status: 404, message: 'No such API route.', hint: 'See docs/protocol.md for the routes.' },
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  BODY_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  VALIDATION_FAILED: { status: 400, message: 'The request is not valid.' },
  UNKNOWN_SETTING: {
    status: 400,
    message: 'Send exactly one known setting with a value of the right type.',
    hint: 'Known settings: botOrchestration, autoRepair, debugMode (booleans), maxConcurrentBots (1-100), keepArtifacts (1-100).',
  },
  NOT_IMPLEMENTED: {
    status: 503,
    message:
      'Bot orchestration service unavailable. Set BOT_SERVICE_URL environment variable for production.',
    hint: 'This part of Forge is not built yet.',
  },
  SHUTTING_DOWN: { status: 503, message: 'Forge is shutting down.' },
  OVERLOADED: {
    status: 503,
    message: 'Forge is busy: too many requests at once.',
    hint: 'Try again after the number of seconds in the Retry-After header.',
  },
  DISK_FULL: {
    status: 507,
    message: "The disk that holds Forge's data is full.",
    hint: 'Free space on it (old builds and projects: forge builds; the data folder: forge config print), then try again.',
  },
  INVALID_FILE_TYPE: { status: 400, message: 'Invalid file type', hint: 'Please upload a ZIP file' },
  FILE_TOO_LARGE: {
    status: 413,
    message: 'File too large',
    hint: `Maximum file size is ${MAX_UPLOAD_LABEL}`,
  },
  ARCHIVE_PATH_TRAVERSAL: {
    status: 422,
    message: 'The archive has an entry that climbs out of its folder (..).',
    hint: 'Re-create the ZIP from the project folder itself.',
  },
  ARCHIVE_ABSOLUTE_PATH: {
    status: 422,
    message: 'The archive has an entry with an absolute or drive path.',
    hint: 'Re-create the ZIP with relative paths.',
  },
  ARCHIVE_BACKSLASH: {
    status: 422,
    message: 'The archive has an entry name with a backslash.',
    hint: 'Re-create the ZIP with a tool that writes forward slashes.',
  },
  ARCHIVE_BAD_NAME: { status: 422, message: 'The archive has an entry name with NUL or control characters.' },
  ARCHIVE_SYMLINK: {
    status: 422,
    message: 'The archive contains a symbolic link.',
    hint: 'An extension is installed without links; replace them with the files they point to.',
  },
  ARCHIVE_DUPLICATE_ENTRY: {
    status: 422,
    message: 'The archive has two entries with the same name (ignoring case).',
  },
  ARCHIVE_TOO_MANY_ENTRIES: {
    status: 422,
    message: 'The archive has too many entries (more than 10,000).',
    hint: 'Leave node_modules and build output out of the ZIP.',
  },
  ARCHIVE_TOO_LARGE: {
    status: 422,
    message: 'The archive expands to more than 500 MB.',
    hint: 'Leave node_modules and build output out of the ZIP.',
  },
  ARCHIVE_RATIO: {
    status: 422,
    message: 'An entry compresses suspiciously well (over 100:1); refusing a possible ZIP bomb.',
  },
  ARCHIVE_SIZE_MISMATCH: { status: 422, message: 'An entry inflates to more than its declared size.' },
  ARCHIVE_ENCRYPTED: {
    status: 422,
    message: 'The archive is encrypted.',
    hint: 'Upload a ZIP without a password.',
  },
  ARCHIVE_CORRUPT: { status: 422, message: 'The archive is corrupt or not a ZIP file.' },
  ARCHIVE_EMPTY: { status: 422, message: 'The archive has no files.' },
  ARCHIVE_BAD_PATH: {
    status: 422,
    message: 'The archive has an entry path with an empty or "." segment, or one too long to write.',
    hint: 'Re-create the ZIP from the project folder itself.',
  },
  BOT_NOT_FOUND: {
    status: 404,
    message: 'There is no bot with that name.',
    hint: 'List the bots with: forge bots',
  },
  BOT_HAS_NO_JOB: { status: 409, message: 'This bot has no build job to run.' },
  NOTHING_TO_FIX: { status: 409, message: 'This bot has no failed job to retry.' },
  REPAIR_OUT_OF_SCOPE: {
    status: 409,
    message: 'RepairBot refused a repair that would change a file outside what a repair may touch.',
    hint: "A repair changes only the files it shows, the install's lockfile and its node_modules; the project was left as it was. See the build's log for the repair it meant to make.",
  },
  REPAIR_NOT_FOUND: {
    status: 404,
    message: 'There is no applied repair with that id in this project.',
    hint: 'Undo the newest repairs of the project with: forge fix --undo',
  },
  EXTENSION_INVALID: {
    status: 400,
    message: 'The extension ZIP is not valid.',
    hint: 'An extension is a ZIP with forge-extension.json at its root (name, displayName, route, version, entry): see docs/extensions.md.',
  },
  EXTENSION_NOT_FOUND: {
    status: 404,
    message: 'There is no installed extension with that name.',
    hint: 'List them with: forge ext ls',
  },
  NO_PREVIOUS_VERSION: {
    status: 409,
    message: 'There is no previous version to roll back to.',
    hint: 'Forge keeps the version before the last upgrade: upload a new version first, then roll back to the one before it.',
  },
  APP_NOT_FOUND: {
    status: 404,
    message: 'There is no integrated app with that name.',
    hint: 'List them with: forge apps ls',
  },
  ROUTE_TAKEN: {
    status: 409,
    message: 'That route is already used by another extension or app, or by the workspace itself.',
    hint: 'Choose another route in forge-extension.json.',
  },
  INTEGRATION_UNAVAILABLE: {
    status: 501,
    message: 'Integrating builds into the platform is not available in this Forge yet.',
    hint: 'Download the built app meanwhile: forge download <project>',
  },
  BUILD_NOT_FOUND: {
    status: 404,
    message: 'There is no build with that id.',
    hint: 'List builds with: forge builds',
  },
  PROJECT_NOT_FOUND: {
    status: 404,
    message: 'There is no project with that name.',
    hint: 'Upload it first: forge upload app.zip',
  },
  NO_ARTIFACT: {
    status: 404,
    message: 'This project has no successful build output yet.',
    hint: 'Build it: forge build <project>',
  },
  NO_BUILD_ARTIFACT: {
    status: 404,
    message: 'This build has no recorded artifact (SBOM, provenance): only successful builds have one.',
    hint: 'List builds with: forge builds; a successful build records its artifact.',
  },
  REBUILD_SOURCE_NOT_KEPT: {
    status: 404,
    message: 'This daemon does not keep the source or the plan of that build, so it cannot build it again.',
    hint: 'Rebuild on the daemon that made the artifact (forge verify --url <daemon>); each project keeps its last keepArtifacts builds (forge settings get keepArtifacts).',
  },
  REBUILD_TOOLCHAIN_UNAVAILABLE: {
    status: 422,
    message:
      'A toolchain the build recorded (Node, the package manager, the stack tool) cannot be provided here.',
    hint: 'The rebuild pins the recorded versions: make them reachable (the npm registry, FORGE_HOME/toolchains) and verify again.',
  },
  REBUILD_FAILED: {
    status: 422,
    message: 'The recorded source did not build again with the recorded plan.',
    hint: 'The rebuild log (GET /api/rebuilds/<id>) says which command failed.',
  },
  REBUILD_NOT_FOUND: {
    status: 404,
    message: 'There is no such verification rebuild (the daemon keeps the last 100).',
  },
  REBUILD_INTERRUPTED: {
    status: 503,
    message: 'The daemon stopped while this verification rebuild ran: it did not finish.',
    hint: 'Run forge verify --rebuild again.',
  },
  NO_GREEN_BUILD: {
    status: 404,
    message: 'There is no earlier successful build of this project to compare this build with.',
    hint: 'Fix the build once (forge fix, or edit and upload again): later failures are compared with it.',
  },
  NOT_A_FAILED_BUILD: {
    status: 409,
    message: 'Only a failed build is compared with the last green build.',
    hint: 'List builds with: forge builds; run forge diff on one that failed.',
  },
  NO_BUILD_SOURCE: {
    status: 404,
    message: 'The source of this failed build was not kept, so it cannot be compared.',
    hint: 'Build it again: Forge keeps the source of the last failed builds of each project.',
  },
  BUILD_NOT_KEPT: {
    status: 410,
    message: "That build is not in the project's history: its artifact was pruned, or it did not succeed.",
    hint: 'List the builds you can roll back to with: forge history <project>',
  },
  NO_EARLIER_BUILD: {
    status: 409,
    message: 'There is no earlier successful build of this project to roll back to.',
    hint: 'List the kept builds with: forge history <project>',
  },
  ROLLBACK_BUSY: {
    status: 409,
    message: 'A build of this project is running: roll back once it has finished.',
    hint: 'Watch it with: forge status, or cancel it with: forge cancel',
  },
  ROLLBACK_UNSUPPORTED: {
    status: 409,
    message:
      "This build cannot be served again without building (its plan is gone, or a server app's packages differ from the installed ones).",
    hint: 'Download the earlier source (GET /api/builds/<id>/source) and upload it again.',
  },
  ARTIFACT_RECORD_FAILED: {
    status: 500,
    message: 'Forge could not record the artifact, SBOM or provenance of this build.',
    hint: 'The build output is still there; forge logs <build> shows why, and building again retries.',
  },
  NO_PACKAGE: {
    status: 404,
    message: 'No platform package yet: Repackage Platform first.',
    hint: "Package it from the university's Platform tab (Repackage Platform), signed in as a family member.",
  },
  BUILD_SUPERSEDED: { status: 409, message: 'A newer upload of this project replaced this one.' },
  BUILD_FINISHED: { status: 409, message: 'This build has already finished.' },
  BLUEPRINT_INVALID_PACKAGE_JSON: {
    status: 422,
    message: "The project's package.json cannot be read.",
    hint: 'package.json must be a JSON object smaller than 1 MB; fix it and upload the project again.',
  },
  BLUEPRINT_INVALID_CONFIG: {
    status: 422,
    message: "The project's forge config is not valid.",
    hint: 'Fix the field named in the message (install, build, start, test, outputDir, env, timeout, app), or remove the forge config.',
  },
  BLUEPRINT_UNKNOWN_APP: {
    status: 422,
    message: 'The app asked for is not one of the apps in this project.',
    hint: 'Pick one of the apps the message lists (a project-relative folder such as apps/web), or leave the choice to Forge.',
  },
  PATH_INVALID: {
    status: 400,
    message: 'The file path is not valid.',
    hint: 'Send a path relative to the project root with forward slashes, e.g. client/src/App.tsx (no empty or "." segments, backslashes or NUL bytes).',
  },
  PATH_OUTSIDE_PROJECT: {
    status: 403,
    message: 'The path leads outside the project.',
    hint: 'Paths are relative to the project root: no "..", no absolute or drive paths, no links that point out of the project.',
  },
  FILE_NOT_FOUND: {
    status: 404,
    message: 'There is no file or folder at that path.',
    hint: 'Refresh the file tree: it may have been moved or deleted.',
  },
  FILE_EXISTS: {
    status: 409,
    message: 'A file or folder with that name already exists.',
    hint: 'Choose another name, or delete the existing one first.',
  },
  NOT_A_FILE: {
    status: 400,
    message: 'That path is a folder or a special file, not a regular file.',
    hint: 'Open or save a file, not a folder.',
  },
  FILE_BINARY: {
    status: 415,
    message: 'This file is binary (or not UTF-8 text) and cannot be opened in the editor.',
    hint: 'Download the project to work on it with another tool.',
  },
  FILE_TOO_LARGE_TO_OPEN: {
    status: 413,
    message: `This file is too large to open in the editor (over ${MAX_OPEN_FILE_LABEL}).`,
    hint: 'Download the project to work on it with another tool.',
  },
  CANNOT_DELETE_ROOT: {
    status: 400,
    message: 'The project folder itself cannot be deleted from the file tree.',
    hint: 'Delete a file or folder inside it.',
  },
  MEMORY_CELL_NOT_FOUND: {
    status: 404,
    message: 'There is no memory cell with that key.',
    hint: 'List the memory cells with: forge memory ls',
  },
  // Build outcomes: the `error.code` of a build that did not succeed (in its record, in
  // build-finished and in the CLI's JSON); never the answer of an HTTP route.
  INSTALL_FAILED: {
    status: 422,
    message: "Installing the project's dependencies failed.",
    hint: 'The install output above the error says why (a package that does not exist, a lockfile out of date, a peer conflict).',
  },
  TOOLCHAIN_UNAVAILABLE: {
    status: 503,
    message: 'The Node or package manager this project asks for could not be fetched from the npm registry.',
    hint: 'Forge fetches Node and package managers once into its toolchains folder and works offline after that: check that the version asked for is published, connect to the registry (or set npm_config_registry) and build again.',
  },
  BUILD_FAILED: {
    status: 422,
    message: "The project's build command failed.",
    hint: 'The first error in the build output says why; fix it and upload again. Read it all with: forge logs <build>',
  },
  STAGE_TIMEOUT: {
    status: 504,
    message: 'A step of the build ran past its time limit.',
    hint: 'Look for what waits (a watch mode, a prompt, a server), or raise "timeout" in the project\'s forge config.',
  },
  OUTPUT_MISSING: {
    status: 422,
    message: 'The build finished but its output folder was not created.',
    hint: 'Set "outputDir" in the project\'s forge config to the folder the build writes.',
  },
  OUTPUT_NO_INDEX: {
    status: 422,
    message:
      'The build wrote its output folder but no index.html at its root: its preview would serve nothing at /.',
    hint: 'Make the build write the site\'s index.html, or set "outputDir" in the project\'s forge config to the folder that holds it.',
  },
  PREVIEW_FAILED: {
    status: 422,
    message: 'The app did not start for its preview.',
    hint: 'A server app must listen on the port given in $PORT; its output above says why it stopped.',
  },
  PROJECT_NOT_BUILDABLE: {
    status: 422,
    message: 'Forge does not know how to build this project.',
    hint: 'Add a "build" or "start" script to package.json, an index.html, or a forge config naming the commands.',
  },
  CANCELLED: { status: 409, message: 'The build was cancelled.' },
  BUILD_INTERRUPTED: {
    status: 503,
    message: 'The Forge daemon stopped while this build was running.',
    hint: 'Build it again: forge build <project>',
  },
  NO_QUEUE: {
    status: 409,
    message: 'This daemon runs its builds itself (in-process queue): it takes no workers.',
    hint: 'Start the daemon with FORGE_QUEUE_URL (or queue in forge.config) set to the Redis the workers use.',
  },
  WORKER_MISMATCH: {
    status: 409,
    message: 'Another worker runs this build now.',
    hint: 'The coordinator gave the build to another worker after this one stopped answering; drop it.',
  },
  QUEUE_UNAVAILABLE: {
    status: 503,
    message: 'The build queue (Redis) cannot be reached.',
    hint: 'Check that Redis runs at the queue URL (forge config print) and accepts connections.',
  },
  INTERNAL: {
    status: 500,
    message: 'Something went wrong inside Forge.',
    hint: 'See the daemon log: forge daemon logs',
  },
} as const satisfies Record<string, { status: number; message: string; hint?: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];
/** A code of the catalogue, as a schema (build errors, stored records). */
export const ErrorCodeSchema = z.enum(ERROR_CODES);

/** What to do about an error of the catalogue, when it says. */
export const errorHint = (code: string): string | undefined =>
  (ERROR_CATALOGUE as Record<string, { hint?: string }>)[code]?.hint;

/** The one wire shape of every failure (docs/architecture.md#errors): `{ error, code, hint? }`. */
export const ErrorBody = z.object({
  /** Human-readable message; clients show it as the server error text. */
  error: z.string(),
  /** Stable code from the catalogue. */
  code: z.string(),
  /** What to do about it. */
  hint: z.string().optional(),
  /** Structured details (e.g. which field failed validation). */
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const errorBody = (code: ErrorCode, message?: string, details?: unknown): ErrorBody => {
  const entry: { message: string; hint?: string } = ERROR_CATALOGUE[code];
  return {
    error: message ?? entry.message,
    code,
    ...(entry.hint ? { hint: entry.hint } : {}),
    ...(details === undefined ? {} : { details }),
  };
};

/** The texts the clients show (docs/product.md#error-texts), exactly as given. */
export const UI_TEXT = {
  uploadFailed: 'Upload failed',
  uploadFailedGeneric: 'Failed to upload project. Please try again.',
  invalidFileType: 'Invalid file type',
  invalidFileTypeHint: 'Please upload a ZIP file',
  fileTooLarge: 'File too large',
  fileTooLargeHint: `Maximum file size is ${MAX_UPLOAD_LABEL}`,
  saveFailed: 'Unable to save file. Please try again.',
  deleteFailed: (name: string) => `Failed to delete ${name}`,
  createFailed: (type: string) => `Failed to create ${type}`,
  forgeUnavailable:
    'Bot orchestration service unavailable. Set BOT_SERVICE_URL environment variable for production.',
  integrationFailed: (text: string) => `Integration failed - ${text}`,
  blueprintFailed: 'Blueprint generation failed.',
  workflowFailed: 'Workflow generation failed.',
  issueScanFailed: 'Issue scan failed.',
  statusCheckFailed: 'Status check failed.',
  moduleFixFailed: (text: string) => `Module fix failed - ${text}`,
  commandFailed: (error: string) => `Command failed: ${error}`,
  commandError: 'Error processing command.',
  invalidCredentials: 'Invalid credentials',
  loginFailed: 'Login failed',
  packageFailed: 'Build failed - family authentication required',
  packageTriggered: 'Build triggered',
  brainConnectionError: 'Connection error. Please try again.',
  filesLoadErrorTitle: 'Error loading files',
  filesLoadErrorBody: 'Unable to load project files. Please try again.',
  fileLoadError: 'Error loading file',
  noProjectFiles: 'No project files found',
  settingErrorTitle: 'Error',
  settingErrorBody: 'Failed to update setting.',
  settingUpdated: 'Setting updated',
  botStatusFailed: 'Failed to load bot status.',
  botTriggerFailed: (op: string, bot: string) => `Failed to trigger ${op} for ${bot}.`,
  forgeChatErrorTitle: 'Chat Error',
  forgeChatErrorBody: 'Failed to send message to Forge',
  generationFailed: 'Generation failed',
  insertFailed: 'Insert failed',
  requestFailed: 'Request failed',
  forgeRequestFailed: 'Forge request failed',
  fileSaved: 'File saved',
  notFoundTitle: '404 Page Not Found',
  notFoundBody: 'Did you forget to add the page to the router?',
  connected: 'Connected',
  disconnected: 'Disconnected',
} as const;

/**
 * docs/product.md#error-texts: a non-OK response becomes "status: body text" (or the status text when the
 * body is empty).
 */
export const httpErrorMessage = (status: number, statusText: string, bodyText: string): string =>
  `${status}: ${bodyText.length > 0 ? bodyText : statusText}`;
