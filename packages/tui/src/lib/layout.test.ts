import { describe, expect, it } from 'vitest';
import { computeLayout, scrollWindow } from './layout.ts';

describe('computeLayout', () => {
  it('fills a 160×45 terminal: header, panes, status line, hint bar', () => {
    const layout = computeLayout(160, 45, { banner: false, prompt: false });
    expect(layout.bodyRows).toBe(42);
    expect(layout.buildRows + layout.logsRows).toBe(42);
    expect(layout.fleetWidth + layout.mainWidth).toBe(160);
    expect(layout.fleetWidth).toBe(52);
  });

  it('makes room for the banner and the prompt', () => {
    const plain = computeLayout(100, 30, { banner: false, prompt: false });
    const both = computeLayout(100, 30, { banner: true, prompt: true });
    expect(plain.bodyRows - both.bodyRows).toBe(5);
  });

  it('never hands out negative sizes in a tiny terminal', () => {
    const layout = computeLayout(20, 3, { banner: true, prompt: true });
    expect(layout.bodyRows).toBe(0);
    expect(layout.buildRows).toBe(0);
    expect(layout.logsRows).toBe(0);
  });
});

describe('scrollWindow', () => {
  const items = Array.from({ length: 10 }, (_, i) => i);

  it('follows the tail from the bottom and scrolls back with an offset', () => {
    expect(scrollWindow(items, 3, 0, 'bottom')).toEqual({ visible: [7, 8, 9], above: 7, below: 0 });
    expect(scrollWindow(items, 3, 2, 'bottom')).toEqual({ visible: [5, 6, 7], above: 5, below: 2 });
    expect(scrollWindow(items, 3, 99, 'bottom')).toEqual({ visible: [0, 1, 2], above: 0, below: 7 });
  });

  it('scrolls from the top for lists read top-down', () => {
    expect(scrollWindow(items, 4, 0, 'top')).toEqual({ visible: [0, 1, 2, 3], above: 0, below: 6 });
    expect(scrollWindow(items, 4, 99, 'top')).toEqual({ visible: [6, 7, 8, 9], above: 6, below: 0 });
    expect(scrollWindow(items, 20, 5, 'top').visible).toHaveLength(10);
  });
});
