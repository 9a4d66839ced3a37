import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseSettingValue, SettingUpdate } from './settings.ts';

describe('settings', () => {
  it('defaults: orchestration and auto-repair on, debug off, 25 bots', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      botOrchestration: true,
      autoRepair: true,
      debugMode: false,
      maxConcurrentBots: 25,
    });
  });

  it('accepts exactly one known key with a value of its type', () => {
    expect(SettingUpdate.safeParse({ debugMode: true }).success).toBe(true);
    expect(SettingUpdate.safeParse({ maxConcurrentBots: 4 }).success).toBe(true);
  });

  it.each([
    ['unknown key', { colour: 'red' }],
    ['two keys', { debugMode: true, autoRepair: false }],
    ['wrong type', { debugMode: 'yes' }],
    ['no key', {}],
    ['non-integer bots', { maxConcurrentBots: 2.5 }],
    ['out-of-range bots', { maxConcurrentBots: 0 }],
  ])('refuses %s', (_, body) => {
    expect(SettingUpdate.safeParse(body).success).toBe(false);
  });

  it('refuses __proto__ from parsed JSON (an own key, not the prototype)', () => {
    const body: unknown = JSON.parse('{"__proto__": {"debugMode": true}}');
    expect(SettingUpdate.safeParse(body).success).toBe(false);
    const mixed: unknown = JSON.parse('{"debugMode": true, "__proto__": {"x": 1}}');
    expect(SettingUpdate.safeParse(mixed).success).toBe(false);
  });

  it('parses CLI text values into typed updates', () => {
    expect(parseSettingValue('debugMode', 'true')).toEqual({ ok: true, update: { debugMode: true } });
    expect(parseSettingValue('maxConcurrentBots', '8')).toEqual({
      ok: true,
      update: { maxConcurrentBots: 8 },
    });
    const bad = parseSettingValue('debugMode', 'maybe');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toContain('true or false');
    const unknown = parseSettingValue('nope', '1');
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.message).toContain('Known settings');
  });
});
