import { describe, expect, it } from 'vitest';
import { FIRST_LOAD_BUDGET_KB, firstLoadScripts, jsBytes } from './support/first-load.ts';

/**
 * What the build holds the first load to, gzip. Bytes are deterministic, so a test may hold them to
 * a figure (a time may not). The goal is FIRST_LOAD_BUDGET_KB (docs/performance.md); until zod and
 * the protocol schemas leave the first load, this ceiling is today's size, so the first load can
 * only shrink: lower it when it does. (Raised from 255 when new routes added their schemas to the
 * shared chunk; docs/performance.md.)
 */
const FIRST_LOAD_CEILING_KB = 260;

describe('the first load of the built web app', () => {
  it(`stays under ${FIRST_LOAD_CEILING_KB} KB gzip (goal ${FIRST_LOAD_BUDGET_KB} KB) and leaves Monaco out`, () => {
    const scripts = firstLoadScripts();
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((f) => /monaco|editor\.api/i.test(f))).toEqual([]);
    const { gzip } = jsBytes(scripts);
    expect(gzip / 1024).toBeLessThanOrEqual(FIRST_LOAD_CEILING_KB);
  });
});
