import { BOT_ROSTER, botButtonDisabled as sharedDisabled, type BotInfo } from '@forge/shared';
import { describe, expect, it } from 'vitest';
import { botButtonDisabled } from '../protocol/facts.ts';
import { paint } from '../terminal.ts';
import { formatBots } from './bots.ts';

const fleet: BotInfo[] = BOT_ROSTER.map((b) => ({
  ...b,
  status: 'active',
  currentJob: null,
  jobsRun: 0,
  failures: 0,
  lastJob: null,
}));

describe('forge bots: disabled buttons', () => {
  it("knows each bot's buttons as shared does", () => {
    for (const b of BOT_ROSTER)
      for (const button of ['build', 'fix'] as const)
        expect(botButtonDisabled(b.name, button)).toBe(sharedDisabled(b.name, button));
  });

  it('prints the reason under a bot whose Build or Fix is disabled, nothing under the others', () => {
    const lines = formatBots(fleet, paint(false));
    const after = (bot: string) => lines[lines.findIndex((l) => new RegExp(`^ {2}${bot} `).test(l)) + 1];
    expect(after('ChatBot')).toBe(
      '      Build and Fix disabled: it works from the Console chat (or forge chat)',
    );
    expect(after('UiBot')).toMatch(
      /^ {6}Build disabled: checking the output is a step of every build.*; Fix disabled: /,
    );
    expect(after('PackageBot')).toMatch(/^ {2}WatchBot /);
    expect(after('LogBot')).toBeUndefined();
    expect(lines.filter((l) => /^ {2}\w+Bot /.test(l))).toHaveLength(25);
  });
});
