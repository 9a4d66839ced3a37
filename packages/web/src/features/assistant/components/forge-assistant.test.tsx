import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { HELP_TEXT } from '../commands.ts';
import { ForgeAssistant } from './forge-assistant.tsx';

const input = () => screen.getByRole('textbox', { name: 'Message to Forge' }) as HTMLInputElement;
const conversation = () =>
  within(screen.getByRole('list', { name: 'Conversation' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);
const say = (text: string) => {
  fireEvent.change(input(), { target: { value: text } });
  fireEvent.submit(input().closest('form')!);
};

describe('Forge assistant (docs/product.md#dashboard-widgets)', () => {
  it('needs a live connection', () => {
    stubDaemon(() => undefined);
    const { socket } = renderPanel(<ForgeAssistant open onOpenChange={() => {}} />);
    expect(input().disabled).toBe(true);
    expect(screen.getByRole('note').textContent).toContain('No live connection');
    socket.setStatus('connected');
    expect(input().disabled).toBe(false);
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('runs the command, disabled while it runs, and shows the answer', async () => {
    let answer!: (res: Response) => void;
    const daemon = stubDaemon(({ method, url }) =>
      method === 'GET' && url.pathname === '/api/forge/status'
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : undefined,
    );
    const { socket } = renderPanel(<ForgeAssistant open onOpenChange={() => {}} />);
    socket.setStatus('connected');

    say('  status  ');
    await waitFor(() => expect(input().disabled).toBe(true));
    expect(input().value).toBe('');
    expect(conversation()).toContain('status');
    // The request goes out once the protocol's schemas are in (lib/protocol.ts).
    await waitFor(() => expect(answer).toBeTypeOf('function'));
    answer(json({ text: 'All systems go.' }));

    await waitFor(() => expect(conversation().at(-1)).toBe('All systems go.'));
    expect(input().disabled).toBe(false);
    expect(daemon.requests.filter((r) => r.path.startsWith('/api/forge'))).toHaveLength(1);
  });

  it('shows the documented failure text of the command when the daemon refuses', async () => {
    stubDaemon(({ url }) => {
      if (url.pathname === '/api/forge/blueprint')
        return json({ error: 'Something went wrong inside Forge.', code: 'INTERNAL' }, 500);
      if (url.pathname === '/api/forge/integrate-last')
        return json(
          {
            error: 'Integrating builds into the platform is not available in this Forge yet.',
            code: 'INTEGRATION_UNAVAILABLE',
          },
          501,
        );
      return undefined;
    });
    const { socket } = renderPanel(<ForgeAssistant open onOpenChange={() => {}} />);
    socket.setStatus('connected');

    say('show the blueprint');
    await waitFor(() => expect(conversation().at(-1)).toBe('Blueprint generation failed.'));
    say('integrate');
    await waitFor(() =>
      expect(conversation().at(-1)).toBe(
        'Integration failed - Integrating builds into the platform is not available in this Forge yet.',
      ),
    );
  });

  it('shows the real answer of each operation, several lines as they are', async () => {
    const scan =
      'Scanned site: 2 issues\n• build.mjs:2 imports ./Lib.mjs; the file is lib.mjs\n• package.json has no lint script';
    stubDaemon(({ url }) => (url.pathname === '/api/forge/issues' ? json({ text: scan }) : undefined));
    const { socket } = renderPanel(<ForgeAssistant open onOpenChange={() => {}} />);
    socket.setStatus('connected');
    say('scan');
    await waitFor(() => expect(conversation().at(-1)).toBe(scan));
  });

  it('does not send empty input and answers other text locally with the commands', async () => {
    const daemon = stubDaemon(() => undefined);
    const { socket } = renderPanel(<ForgeAssistant open onOpenChange={() => {}} />);
    socket.setStatus('connected');
    const before = conversation().length;

    say('   ');
    expect(conversation()).toHaveLength(before);
    say('hello');
    await waitFor(() => expect(conversation().at(-1)).toBe(HELP_TEXT));
    expect(daemon.requests.some((r) => r.path.startsWith('/api/forge'))).toBe(false);
  });

  it('is hidden when closed and closes with Escape or the close button', () => {
    stubDaemon(() => undefined);
    const closes: boolean[] = [];
    const { rerender } = renderPanel(<ForgeAssistant open onOpenChange={(o) => closes.push(o)} />);
    fireEvent.keyDown(input(), { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Close the Forge assistant' }));
    expect(closes).toEqual([false, false]);
    rerender(<ForgeAssistant open={false} onOpenChange={() => {}} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
