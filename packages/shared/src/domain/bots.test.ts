import { describe, expect, it } from 'vitest';
import { BOT_CATEGORY_COUNTS, TOTAL_BOTS } from '../constants.ts';
import { activityTone, BOT_ROSTER, DEFAULT_BUILDER_BOTS, isKnownBot } from './bots.ts';
import { STAGE_LABELS, STAGES, stageLabel } from './stage.ts';

describe('the fleet roster', () => {
  it('has 25 uniquely named bots split 6/6/6/7 by category', () => {
    expect(BOT_ROSTER).toHaveLength(TOTAL_BOTS);
    expect(new Set(BOT_ROSTER.map((b) => b.name)).size).toBe(TOTAL_BOTS);
    for (const [category, count] of Object.entries(BOT_CATEGORY_COUNTS)) {
      expect(BOT_ROSTER.filter((b) => b.category === category)).toHaveLength(count);
    }
  });
  it('contains the default builder bots', () => {
    for (const name of DEFAULT_BUILDER_BOTS) expect(isKnownBot(name)).toBe(true);
    expect(isKnownBot('NoSuchBot')).toBe(false);
  });
  it('colours activity: online green, pending yellow, anything else red', () => {
    expect(activityTone('online')).toBe('online');
    expect(activityTone('pending')).toBe('pending');
    expect(activityTone('offline')).toBe('error');
    expect(activityTone('')).toBe('error');
  });
});

describe('stages (docs/product.md#build-states)', () => {
  it('labels every stage exactly as documented', () => {
    expect(STAGES).toHaveLength(11);
    expect(STAGE_LABELS['bot-assignment']).toBe('Assigning Bots');
    expect(STAGE_LABELS['no-build-needed']).toBe('Ready');
    expect(stageLabel('build-success')).toBe('Build Complete');
    expect(stageLabel('something-new')).toBe('something-new');
  });
});
