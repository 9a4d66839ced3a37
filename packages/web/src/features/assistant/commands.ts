import type { ForgeClient, RouteName } from '@forge/shared';
import { isForgeHttpError, isForgeUnreachableError } from '@/lib/http-error.ts';
import { UI_TEXT, WHAT_CHANGED_QUESTION } from '@forge/shared/schema-free';

/** What the Forge assistant can do (docs/product.md#http-calls); `help` is answered locally. */
export type AssistantCommand =
  'integrate' | 'blueprint' | 'workflow' | 'issues' | 'status' | 'fixModules' | 'changes' | 'help';

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
  // After the spec's keywords: "what changed since it last worked?" compares with the last green build.
  if (WHAT_CHANGED_QUESTION.test(text)) return 'changes';
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
      | 'forgeChanges'
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
  changes: { route: 'forgeChanges', failure: UI_TEXT.commandFailed },
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
  '• what changed since it last worked?: compare with the last green build',
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
    if (isForgeHttpError(error)) return { command, reply: failure(error.serverMessage), ok: false };
    if (isForgeUnreachableError(error)) return { command, reply: UI_TEXT.commandError, ok: false };
    const message = error instanceof Error ? error.message : String(error);
    return { command, reply: UI_TEXT.commandFailed(message), ok: false };
  }
}
