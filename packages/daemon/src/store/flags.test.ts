import { afterEach, describe, expect, it } from 'vitest';
import { createFlags } from './flags.ts';
import { openStore, type Store } from './store.ts';

const stores: Store[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});
function flags() {
  const store = openStore(':memory:');
  stores.push(store);
  return { store, flags: createFlags(store) };
}

describe('createFlags', () => {
  it('keeps booleans and text under their keys, and a later set wins', () => {
    const { flags: f } = flags();
    expect(f.boolean('auto', true)).toBe(true);
    expect(f.text('greeting')).toBeNull();
    f.set('auto', false);
    f.set('greeting', 'hello');
    f.set('greeting', 'hi');
    expect(f.boolean('auto', true)).toBe(false);
    expect(f.text('greeting')).toBe('hi');
  });

  it('reads a value of another type or an unreadable row as unset', () => {
    const { store, flags: f } = flags();
    f.set('auto', 'yes');
    f.set('greeting', true);
    store.db.prepare("INSERT INTO flags (key, value, updated_at) VALUES ('broken', '{', '')").run();
    expect(f.boolean('auto', true)).toBe(true);
    expect(f.text('greeting')).toBeNull();
    expect(f.text('broken')).toBeNull();
    expect(f.boolean('broken', false)).toBe(false);
  });
});
