import {
  ForgeHttpError,
  ForgeUnreachableError,
  UI_TEXT,
  type ForgeClient,
  type RouteName,
} from '@forge/shared';

/** What the Forge assistant can do (docs/product.md#http-calls); `help` is answered locally. */
export type AssistantCommand =
  'integrate' | 'blueprint' | 'workflow' | 'issues' | 'status' | 'fixModules' | 'help';

/**
 * docs/product.md#http-calls: the call is chosen from keywords in the message, checked in the documented
 * order (so "integrate status" integrates): integrate; blueprint; workflow; "list issues" or scan; status or
 * health; "fix modules"; anything else lists the commands. Case-insensitive, anywhere in the text.
 */
export function routeCommand(input: string): AssistantCommand {
  const text = input.toLowerCase().replace(/\s+/g, ' ');
  if (text.includes('integrate')) return 'integrate';
  if (text.includes('blueprint')) return 'blueprint';
  if (text.includes('workflow')) return 'workflow';
  if (text.includes('list issues') || text.includes('scan')) return 'issues';
  if (text.includes('status') || text.includes('health')) return 'status';
  if (text.includes('fix modules')) return 'fixModules';
  return 'help';
}

type CallableCommand = Exclude<AssistantCommand, 'help'>;

/**
 * The daemon route each command calls, and the text shown when it answers non-OK
 * (docs/product.md#error-texts).
 */
export const COMMAND_CALLS: Record<
  CallableCommand,
  {
    route: Extract<
      RouteName,
      | 'forgeIntegrateLast'
      | 'forgeBlueprint'
      | 'forgeWorkflow'
      | 'forgeIssues'
      | 'forgeStatus'
      | 'forgeFixModules'
    >;
    failure: (text: string) => string;
  }
> = {
  integrate: { route: 'forgeIntegrateLast', failure: UI_TEXT.integrationFailed },
  blueprint: { route: 'forgeBlueprint', failure: () => UI_TEXT.blueprintFailed },
  workflow: { route: 'forgeWorkflow', failure: () => UI_TEXT.workflowFailed },
  issues: { route: 'forgeIssues', failure: () => UI_TEXT.issueScanFailed },
  status: { route: 'forgeStatus', failure: () => UI_TEXT.statusCheckFailed },
  fixModules: { route: 'forgeFixModules', failure: UI_TEXT.moduleFixFailed },
};

/** The local answer to anything that is not a command. */
export const HELP_TEXT = [
  'I understand these commands:',
  '• integrate: integrate the last build',
  '• blueprint: the blueprint of the current project',
  '• workflow: the build workflow',
  '• list issues (or scan): scan for issues',
  '• status (or health): status and health',
  '• fix modules: repair missing modules',
].join('\n');

/**
 * Run the command a message asks for and return the bot's answer — never throws:
 * - the daemon answered: its text;
 * - it answered non-OK: the command's failure text ("Integration failed - {text}" with the daemon's
 *   error message as {text}; docs/product.md#error-texts);
 * - it answered something that is not the protocol: "Command failed: {error}";
 * - it could not be reached at all: "Error processing command.".
 */
export async function runAssistantCommand(
  client: Pick<ForgeClient, 'request'>,
  input: string,
  /** The project selected in the header: the answer is about it (default: the daemon's current one). */
  project?: string | null,
): Promise<{ command: AssistantCommand; reply: string; ok: boolean }> {
  const command = routeCommand(input);
  if (command === 'help') return { command, reply: HELP_TEXT, ok: true };
  const { route, failure } = COMMAND_CALLS[command];
  try {
    const answer = project
      ? await client.request(route, { query: { project } })
      : await client.request(route);
    return { command, reply: answer.text, ok: true };
  } catch (error) {
    if (error instanceof ForgeHttpError) return { command, reply: failure(error.serverMessage), ok: false };
    if (error instanceof ForgeUnreachableError) return { command, reply: UI_TEXT.commandError, ok: false };
    const message = error instanceof Error ? error.message : String(error);
    return { command, reply: UI_TEXT.commandFailed(message), ok: false };
  }
}
