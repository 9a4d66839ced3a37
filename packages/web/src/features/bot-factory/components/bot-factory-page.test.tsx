import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BOT_ROSTER, UI_TEXT, type BotInfo } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { stubDaemon, type RouteHandler } from '@/test/render-panel.tsx';
import { botCards, categoryCounts, filterCards, formatAgo } from '../bot-cards.ts';
// Loaded up front: the route imports the screen lazily, and a cold transform under load can outlast
// a findBy timeout.
import './bot-factory-page.tsx';

const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)' }));

const liveBots = (overrides: Partial<Record<string, Partial<BotInfo>>> = {}): BotInfo[] =>
  BOT_ROSTER.map((b) => ({
    name: b.name,
    category: b.category,
    description: b.description,
    status: 'active',
    currentJob: null,
    jobsRun: 0,
    failures: 0,
    lastJob: null,
    ...overrides[b.name],
  }));

function daemon(extra: RouteHandler = () => undefined, bots: BotInfo[] = liveBots()) {
  return stubDaemon((req) => {
    const answer = extra(req);
    if (answer) return answer;
    if (req.method === 'GET' && req.url.pathname === '/api/bots') return json(bots);
    return undefined;
  });
}

const botList = () => within(screen.getByRole('list', { name: 'Bots' }));
const card = (name: string) => botList().getByRole('listitem', { name });
const filterButton = (label: RegExp) =>
  within(screen.getByRole('group', { name: 'Category' })).getByRole('button', { name: label });

describe('bot factory cards (pure)', () => {
  it('counts the 25 bots by category and filters them', () => {
    const cards = botCards(undefined);
    expect(categoryCounts(cards)).toEqual({
      all: 25,
      infrastructure: 6,
      development: 6,
      operations: 6,
      services: 7,
    });
    expect(filterCards(cards, 'services').map((c) => c.category)).toEqual(Array(7).fill('services'));
    // Without a live answer the status is unknown, not claimed active.
    expect(cards.every((c) => c.status === null)).toBe(true);
  });
});

describe('formatAgo', () => {
  const now = Date.parse('2026-01-02T03:04:05.000Z');
  const ago = (ms: number) => formatAgo(new Date(now - ms).toISOString(), now);
  it('says how long ago, in the largest whole unit', () => {
    expect(ago(2_000)).toBe('just now');
    expect(ago(-5_000)).toBe('just now');
    expect(ago(45_000)).toBe('45 s ago');
    expect(ago(3 * 60_000 + 59_000)).toBe('3 min ago');
    expect(ago(2 * 3_600_000)).toBe('2 h ago');
    expect(ago(4 * 86_400_000)).toBe('4 d ago');
    expect(formatAgo('not a date', now)).toBe('not a date');
  });
});

describe('bot factory screen', () => {
  it('says on each card what the bot last did and when, and shows standby as neutral', async () => {
    const at = new Date(Date.now() - 3 * 60_000).toISOString();
    daemon(
      undefined,
      liveBots({
        ScanBot: {
          lastJob: {
            label: 'diagnose site#b9',
            ok: true,
            at,
            summary: 'Import case mismatch in build.mjs:2',
          },
        },
        RepairBot: { lastJob: { label: 'repair site#b9', ok: false, at, summary: null } },
        AuthBot: { status: 'standby' },
      }),
    );
    renderApp('/bot-factory');
    await screen.findByRole('list', { name: 'Bots' });

    const scan = await within(card('ScanBot')).findByLabelText('Last job');
    expect(scan.textContent).toBe('Import case mismatch in build.mjs:2 · 3 min ago');
    expect(within(scan).getByLabelText('Succeeded')).toBeDefined();
    // Without a summary, the job's label.
    const repair = within(card('RepairBot')).getByLabelText('Last job');
    expect(repair.textContent).toBe('repair site#b9 · 3 min ago');
    expect(within(repair).getByLabelText('Failed')).toBeDefined();
    expect(within(card('UiBot')).getByLabelText('Last job').textContent).toBe('No job yet.');

    const standby = within(card('AuthBot')).getByTestId('bot-status');
    expect(standby.textContent).toBe('standby');
    expect(standby.className).not.toMatch(/text-(online|pending|error)/);
    expect(standby.getAttribute('title')).toMatch(/^Cannot take work yet/);
  });

  it('shows a card per bot with its live status, and filters by category with counts', async () => {
    daemon(undefined, liveBots({ BuildBot: { status: 'building', currentJob: 'build app#b7', jobsRun: 3 } }));
    renderApp('/bot-factory');
    await screen.findByRole('list', { name: 'Bots' });

    expect(await within(card('BuildBot')).findByText('building')).toBeDefined();
    expect(within(card('BuildBot')).getByText('build app#b7')).toBeDefined();
    expect(botList().getAllByRole('listitem')).toHaveLength(25);
    expect(filterButton(/^All/).textContent).toBe('All25');
    expect(filterButton(/^Services/).textContent).toBe('Services7');
    expect(filterButton(/^All/).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(filterButton(/^Services/));

    const shown = botList().getAllByRole('listitem');
    expect(shown).toHaveLength(7);
    expect(shown.map((el) => el.getAttribute('aria-label'))).toContain('AuthBot');
    expect(botList().queryByRole('listitem', { name: 'BuildBot' })).toBeNull();
    expect(filterButton(/^Services/).getAttribute('aria-pressed')).toBe('true');
  });

  it('updates a card when the daemon pushes a bot-status message', async () => {
    daemon();
    const { socket } = renderApp('/bot-factory');
    await screen.findByRole('list', { name: 'Bots' });
    expect(await within(card('TestBot')).findByText('active')).toBeDefined();

    socket.emit({ type: 'bot-status', botName: 'TestBot', status: 'error', job: null });

    await waitFor(() => expect(within(card('TestBot')).getByTestId('bot-status').textContent).toBe('error'));
  });

  it('Build posts the bot name and confirms with the answer message', async () => {
    const { requests } = daemon((req) =>
      req.method === 'POST' && req.url.pathname === '/api/bots/build'
        ? json({ ok: true, botName: 'BuildBot', message: 'BuildBot started build b9 of site.' })
        : undefined,
    );
    renderApp('/bot-factory');
    await screen.findByRole('list', { name: 'Bots' });
    await within(card('BuildBot')).findByText('active');

    fireEvent.click(within(card('BuildBot')).getByRole('button', { name: 'Build' }));

    expect(await notices().findByText('BuildBot started build b9 of site.')).toBeDefined();
    expect(requests.filter((r) => r.method === 'POST')).toMatchObject([
      { path: '/api/bots/build', body: { botName: 'BuildBot' } },
    ]);
  });

  it('says "Failed to trigger fix for {bot}." with the reason when the daemon refuses', async () => {
    daemon((req) =>
      req.method === 'POST' && req.url.pathname === '/api/bots/fix'
        ? json({ error: 'RepairBot has no failed job to retry.', code: 'NOTHING_TO_FIX' }, 409)
        : undefined,
    );
    renderApp('/bot-factory');
    await screen.findByRole('list', { name: 'Bots' });
    await within(card('RepairBot')).findByText('active');

    fireEvent.click(within(card('RepairBot')).getByRole('button', { name: 'Fix' }));

    expect(await notices().findByText(UI_TEXT.botTriggerFailed('fix', 'RepairBot'))).toBeDefined();
    expect(notices().getByText('RepairBot has no failed job to retry.')).toBeDefined();
  });

  it('says "Failed to trigger build for {bot}." when the bot has no build job', async () => {
    daemon((req) =>
      req.method === 'POST'
        ? json({ error: 'This bot has no build job to run.', code: 'BOT_HAS_NO_JOB' }, 409)
        : undefined,
    );
    renderApp('/bot-factory');
    await screen.findByRole('list', { name: 'Bots' });
    await within(card('CacheBot')).findByText('active');

    fireEvent.click(within(card('CacheBot')).getByRole('button', { name: 'Build' }));

    expect(await notices().findByText('Failed to trigger build for CacheBot.')).toBeDefined();
    expect(notices().getByText('This bot has no build job to run.')).toBeDefined();
  });

  it('says "Failed to load bot status." when the list fails, and still offers every card', async () => {
    stubDaemon((req) =>
      req.url.pathname === '/api/bots'
        ? json({ error: 'Something went wrong inside Forge.', code: 'INTERNAL' }, 500)
        : undefined,
    );
    renderApp('/bot-factory');
    await screen.findByRole('list', { name: 'Bots' });

    expect(await screen.findByText(UI_TEXT.botStatusFailed)).toBeDefined();
    expect(botList().getAllByRole('listitem')).toHaveLength(25);
    expect(within(card('CacheBot')).getByTestId('bot-status').textContent).toBe('unknown');
  });
});
