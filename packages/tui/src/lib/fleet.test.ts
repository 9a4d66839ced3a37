import { describe, expect, it } from 'vitest';
import { fakeBots as roster } from '../testing/fake-client.ts';
import { activityColor, botColor, groupFleet } from './fleet.ts';

describe('groupFleet', () => {
  it('groups the 25 bots into the four categories in roster order with their sizes', () => {
    const groups = groupFleet(roster());
    expect(groups.map((g) => [g.label, g.bots.length, g.healthy, g.status])).toEqual([
      ['Infrastructure', 6, 6, 'online'],
      ['Development', 6, 6, 'online'],
      ['Operations', 6, 6, 'online'],
      ['Services', 7, 7, 'online'],
    ]);
  });

  it('marks a category pending while a bot builds and error (with fewer healthy) when one failed', () => {
    const groups = groupFleet(
      roster({
        BuildBot: { status: 'building' },
        ExtractBot: { status: 'error' },
        CacheBot: { status: 'building' },
      }),
    );
    expect(groups[0]).toMatchObject({ category: 'infrastructure', healthy: 5, status: 'error' });
    expect(groups[1]).toMatchObject({ category: 'development', healthy: 6, status: 'pending' });
  });

  it('keeps bots of a category it does not know, after the known ones', () => {
    const bots = [...roster(), { ...roster()[0]!, name: 'NewBot', category: 'experimental' }];
    expect(groupFleet(bots).map((g) => g.label)).toEqual([
      'Infrastructure',
      'Development',
      'Operations',
      'Services',
      'Experimental',
    ]);
  });
});

describe('colours', () => {
  it.each([
    ['active', 'green'],
    ['online', 'green'],
    ['building', 'yellow'],
    ['pending', 'yellow'],
    ['error', 'red'],
    ['idle', 'red'],
  ])('bot status %s is %s', (status, color) => {
    expect(botColor(status)).toBe(color);
  });

  it('category colours follow the shared activityTone', () => {
    expect([
      activityColor('online'),
      activityColor('pending'),
      activityColor('error'),
      activityColor('x'),
    ]).toEqual(['green', 'yellow', 'red', 'red']);
  });
});
