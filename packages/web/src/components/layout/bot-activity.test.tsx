import { act, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { POLL_MS, type BotStatusResponse } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { BotActivityList, OnlineBotsBadge } from './bot-activity.tsx';
import { presentBotStatus } from './bot-status.ts';
import { SidebarNav } from './sidebar-nav.tsx';

const status = (activities: BotStatusResponse['activities'], success = true): BotStatusResponse => ({
  success,
  activities,
});

const rows = () =>
  within(screen.getByRole('list', { name: 'Bot Activity' }))
    .getAllByRole('listitem')
    .map((row) => ({
      text: row.textContent,
      tone: row.dataset.tone,
      dot: row.querySelector('[aria-hidden="true"]')!.className,
    }));

function renderList(answer: () => Response) {
  const daemon = stubDaemon(({ url }) => (url.pathname === '/api/bots/status' ? answer() : undefined));
  renderPanel(
    <>
      <OnlineBotsBadge />
      <BotActivityList />
    </>,
  );
  return daemon;
}

afterEach(() => {
  vi.useRealTimers();
  window.localStorage.clear();
});

describe('Bot Activity (docs/product.md#routes-and-navigation, docs/product.md#build-states)', () => {
  it('colours online green, pending yellow and anything else red, with type and count', async () => {
    renderList(() =>
      json(
        status([
          { type: 'infrastructure', count: 6, status: 'online' },
          { type: 'development', count: 6, status: 'pending' },
          { type: 'operations', count: 5, status: 'error' },
          { type: 'services', count: 7, status: 'sleeping' },
        ]),
      ),
    );

    await screen.findByRole('list', { name: 'Bot Activity' });
    expect(rows()).toEqual([
      { text: 'Infrastructure6online', tone: 'online', dot: expect.stringContaining('bg-online') },
      { text: 'Development6pending', tone: 'pending', dot: expect.stringContaining('bg-pending') },
      { text: 'Operations5error', tone: 'error', dot: expect.stringContaining('bg-error') },
      { text: 'Services7sleeping', tone: 'error', dot: expect.stringContaining('bg-error') },
    ]);
    expect(screen.getByTestId('online-bots-badge').textContent).toBe('24');
  });

  it('shows every activity as error when all bots are reported inactive', async () => {
    renderList(() =>
      json(
        status([
          { type: 'infrastructure', count: 0, status: 'online' },
          { type: 'development', count: 0, status: 'pending' },
        ]),
      ),
    );

    await screen.findByRole('list', { name: 'Bot Activity' });
    expect(rows().map((r) => [r.text, r.tone])).toEqual([
      ['Infrastructure0error', 'error'],
      ['Development0error', 'error'],
    ]);
    expect(screen.getByTestId('online-bots-badge').textContent).toBe('0');
  });

  it('treats a report of success: false as every bot inactive', () => {
    const view = presentBotStatus(status([{ type: 'services', count: 7, status: 'online' }], false));
    expect(view.allInactive).toBe(true);
    expect(view.activities.map((a) => a.tone)).toEqual(['error']);
    expect(view.online).toBe(0);
    expect(presentBotStatus(status([{ type: 'services', count: 7, status: 'online' }])).allInactive).toBe(
      false,
    );
  });

  it('says "Failed to load bot status." in the list when the status cannot be read, not as a notice', async () => {
    renderList(() => json({ error: 'down', code: 'INTERNAL' }, 500));

    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load bot status.');
    expect(screen.queryByRole('list', { name: 'Bot Activity' })).toBeNull();
    expect(
      within(screen.getByRole('region', { name: 'Notifications (F8)' })).queryByRole('status'),
    ).toBeNull();
    expect(screen.getByTestId('online-bots-badge').textContent).toBe('–');
  });
});

describe('navigation bot poll', () => {
  it('reads /api/bots/status every 5 s and shows the list in the expanded sidebar', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    window.localStorage.setItem('forge.nav.collapsed', '0');
    let online = 6;
    const daemon = stubDaemon(({ url }) =>
      url.pathname === '/api/bots/status'
        ? json(status([{ type: 'infrastructure', count: online, status: 'online' }]))
        : undefined,
    );
    renderPanel(
      <MemoryRouter>
        <SidebarNav />
      </MemoryRouter>,
    );
    const polls = () => daemon.requests.filter((r) => r.path === '/api/bots/status').length;

    expect(await screen.findByText('Infrastructure')).toBeDefined();
    expect(polls()).toBe(1);

    online = 5;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(POLL_MS.botStatus);
    });
    await waitFor(() => expect(polls()).toBe(2));
    await waitFor(() => expect(screen.getAllByTestId('online-bots-badge')[0]!.textContent).toBe('5'));
  });
});
