/**
 * The texts the clients show and the one rule for an HTTP failure's text. Kept apart from the error
 * catalogue's schemas (errors.ts re-exports them) so a client's first paint can use them without zod
 * (schema-free.ts).
 */
import { MAX_UPLOAD_LABEL } from './constants.ts';

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
