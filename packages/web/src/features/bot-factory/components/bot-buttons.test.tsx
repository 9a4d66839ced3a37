import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BOT_BUTTONS, BOT_ROSTER, type BotInfo } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { stubDaemon } from '@/test/render-panel.tsx';
import './bot-factory-page.tsx';

const bots: BotInfo[] = BOT_ROSTER.map((b) => ({
  name: b.name,
  category: b.category,
  description: b.description,
  status: 'active',
  currentJob: null,
  jobsRun: 0,
  failures: 0,
  lastJob: null,
}));

const card = (name: string) =>
  within(screen.getByRole('list', { name: 'Bots' })).getByRole('listitem', { name });

describe("bot cards' Build and Fix", () => {
  it('disables a button that has no job and says why on its title; the others say what they do', async () => {
    const posted: string[] = [];
    stubDaemon((req) => {
      if (req.method === 'GET' && req.url.pathname === '/api/bots') return json(bots);
      if (req.method === 'POST') posted.push(req.url.pathname);
      return undefined;
    });
    renderApp('/bot-factory');
    await screen.findByRole('list', { name: 'Bots' });
    await within(card('UiBot')).findByText('active');

    for (const bot of BOT_ROSTER) {
      for (const [button, label] of [
        ['build', 'Build'],
        ['fix', 'Fix'],
      ] as const) {
        const el = within(card(bot.name)).getByRole('button', { name: label }) as HTMLButtonElement;
        const spec = BOT_BUTTONS[bot.name]![button];
        if ('disabled' in spec) {
          expect(el.disabled, `${bot.name} ${label}`).toBe(true);
          expect(el.title).toBe(`Disabled: ${spec.disabled}`);
          expect(el.parentElement!.title).toBe(`Disabled: ${spec.disabled}`);
        } else {
          expect(el.disabled, `${bot.name} ${label}`).toBe(false);
          expect(el.title).toBe(spec.does);
        }
      }
    }
    expect(within(card('UiBot')).getByRole('button', { name: 'Build' }).title).toMatch(
      /^Disabled: checking the output is a step of every build/,
    );
    expect(within(card('PackageBot')).getByRole('button', { name: 'Build' }).title).toMatch(
      /packages the platform/,
    );

    // A disabled button posts nothing.
    fireEvent.click(within(card('ChatBot')).getByRole('button', { name: 'Build' }));
    expect(posted).toEqual([]);
  });
});
