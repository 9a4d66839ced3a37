import { describe, expect, it, vi } from 'vitest';
import { ForgeHttpError, ForgeProtocolError, ForgeUnreachableError, type ForgeClient } from '@forge/shared';
import { COMMAND_CALLS, HELP_TEXT, routeCommand, runAssistantCommand } from './commands.ts';

const broken = 'Something went wrong inside Forge.';
const http500 = () =>
  new ForgeHttpError(500, 'Internal Server Error', JSON.stringify({ error: broken, code: 'INTERNAL' }));

const clientThat = (request: (route: string) => Promise<unknown>) =>
  ({ request: vi.fn(request) }) as unknown as Pick<ForgeClient, 'request'> & {
    request: ReturnType<typeof vi.fn>;
  };

describe('routeCommand (keywords, docs/product.md#http-calls)', () => {
  it.each([
    ['integrate the last build', 'integrate'],
    ['Show me the BLUEPRINT', 'blueprint'],
    ['what is the workflow?', 'workflow'],
    ['list issues please', 'issues'],
    ['scan the project', 'issues'],
    ['status', 'status'],
    ['how is the health', 'status'],
    ['fix modules', 'fixModules'],
    ['fix   modules', 'fixModules'],
    ['hello', 'help'],
    ['issues', 'help'],
    ['fix it', 'help'],
  ] as const)('%s → %s', (input, command) => {
    expect(routeCommand(input)).toBe(command);
  });

  it('checks the keywords in the documented order', () => {
    expect(routeCommand('integrate and report status')).toBe('integrate');
    expect(routeCommand('fix modules then show status')).toBe('status');
    expect(routeCommand('scan the workflow')).toBe('workflow');
  });
});

describe('runAssistantCommand', () => {
  it('calls the route of the command and answers its text', async () => {
    const client = clientThat(async () => ({ text: 'All 25 bots online.' }));
    expect(await runAssistantCommand(client, 'status?')).toEqual({
      command: 'status',
      reply: 'All 25 bots online.',
      ok: true,
    });
    expect(client.request).toHaveBeenCalledWith('forgeStatus');
  });

  it.each(Object.entries(COMMAND_CALLS))('%s calls %s', async (command, { route }) => {
    const client = clientThat(async () => ({ text: 'ok' }));
    const input = {
      integrate: 'integrate',
      blueprint: 'blueprint',
      workflow: 'workflow',
      issues: 'scan',
      status: 'health',
      fixModules: 'fix modules',
    }[command]!;
    await runAssistantCommand(client, input);
    expect(client.request).toHaveBeenCalledWith(route);
    // The project selected in the header goes along: the answer is about it.
    await runAssistantCommand(client, input, 'shop');
    expect(client.request).toHaveBeenLastCalledWith(route, { query: { project: 'shop' } });
  });

  it('answers anything else locally with the list of commands', async () => {
    const client = clientThat(async () => ({ text: 'never' }));
    expect((await runAssistantCommand(client, 'hi there')).reply).toBe(HELP_TEXT);
    expect(client.request).not.toHaveBeenCalled();
  });

  it('shows the documented failure text of each command when the daemon refuses', async () => {
    const client = clientThat(async () => {
      throw http500();
    });
    const reply = async (input: string) => (await runAssistantCommand(client, input)).reply;
    expect(await reply('integrate')).toBe(`Integration failed - ${broken}`);
    expect(await reply('blueprint')).toBe('Blueprint generation failed.');
    expect(await reply('workflow')).toBe('Workflow generation failed.');
    expect(await reply('list issues')).toBe('Issue scan failed.');
    expect(await reply('status')).toBe('Status check failed.');
    expect(await reply('fix modules')).toBe(`Module fix failed - ${broken}`);
  });

  it('says "Error processing command." when the daemon cannot be reached', async () => {
    const client = clientThat(async () => {
      throw new ForgeUnreachableError('this page', new TypeError('Failed to fetch'));
    });
    expect(await runAssistantCommand(client, 'status')).toEqual({
      command: 'status',
      reply: 'Error processing command.',
      ok: false,
    });
  });

  it('says "Command failed: {error}" when the answer is not what the protocol says', async () => {
    const client = clientThat(async () => {
      throw new ForgeProtocolError('GET /api/forge/status answered non-JSON: <html>');
    });
    expect((await runAssistantCommand(client, 'status')).reply).toBe(
      'Command failed: GET /api/forge/status answered non-JSON: <html>',
    );
  });
});
