import { describe, expect, it } from 'vitest';
import { PANELS } from '@forge/shared';
import {
  clampCodeViewHeight,
  fitSidePanels,
  layoutFromPx,
  MIDDLE_MIN_PX,
  pxFromLayout,
  sidePanelBounds,
  toPercent,
} from './panel-bounds.ts';

const px = (percent: number, width: number) => (percent * width) / 100;

describe('side panel bounds in percent of the container (docs/product.md#dashboard)', () => {
  it('turns the pixel bounds and defaults into percentages of a wide container', () => {
    const width = 1600;
    const bounds = sidePanelBounds(width);

    expect(px(bounds.left.minSize, width)).toBeCloseTo(PANELS.left.min); // 200
    expect(px(bounds.left.maxSize, width)).toBeCloseTo(PANELS.left.max); // 600
    expect(px(bounds.left.defaultSize, width)).toBeCloseTo(PANELS.left.default); // 320
    expect(px(bounds.right.minSize, width)).toBeCloseTo(PANELS.right.min); // 200
    expect(px(bounds.right.maxSize, width)).toBeCloseTo(PANELS.right.max); // 400
    expect(px(bounds.right.defaultSize, width)).toBeCloseTo(PANELS.right.default); // 256
    expect(bounds.left.defaultSize).toBeCloseTo(20);
    expect(bounds.right.defaultSize).toBeCloseTo(16);
    expect(px(bounds.middleMin, width)).toBeCloseTo(MIDDLE_MIN_PX);
  });

  it('gives the same pixels at another width: only the percentages change', () => {
    for (const width of [900, 1232, 1920, 2560]) {
      const bounds = sidePanelBounds(width);
      expect(px(bounds.left.minSize, width)).toBeCloseTo(200);
      expect(px(bounds.right.minSize, width)).toBeCloseTo(200);
      expect(px(bounds.left.defaultSize, width)).toBeCloseTo(320);
      expect(px(bounds.right.defaultSize, width)).toBeCloseTo(256);
    }
    expect(sidePanelBounds(1000).left.minSize).toBeCloseTo(20);
    expect(sidePanelBounds(2000).left.minSize).toBeCloseTo(10);
  });

  it('caps a side panel where the container cannot hold its maximum beside the others', () => {
    const width = 1000;
    const bounds = sidePanelBounds(width);
    // 1000 - right min 200 - middle min 240 leaves 560 for the left, under its 600 max.
    expect(px(bounds.left.maxSize, width)).toBeCloseTo(560);
    expect(px(bounds.right.maxSize, width)).toBeCloseTo(PANELS.right.max);
    // Every combination of minimums still fits, so the panel library accepts the constraints.
    expect(bounds.left.minSize + bounds.right.minSize + bounds.middleMin).toBeLessThanOrEqual(100);
  });

  it('shrinks the defaults toward the minimums when both do not fit a narrow container', () => {
    const width = 720; // a 768 px window with the icon rail
    const bounds = sidePanelBounds(width);
    const left = px(bounds.left.defaultSize, width);
    const right = px(bounds.right.defaultSize, width);
    expect(left + right + MIDDLE_MIN_PX).toBeCloseTo(width);
    expect(left).toBeGreaterThanOrEqual(PANELS.left.min);
    expect(right).toBeGreaterThanOrEqual(PANELS.right.min);
    expect(left).toBeLessThan(PANELS.left.default);
    expect(right).toBeLessThan(PANELS.right.default);
  });

  it('lets the middle give way, then scales the minimums, in containers too small for them', () => {
    const squeezed = sidePanelBounds(500);
    expect(px(squeezed.middleMin, 500)).toBeCloseTo(100);
    expect(px(squeezed.left.minSize, 500)).toBeCloseTo(200);

    const tiny = sidePanelBounds(300);
    expect(tiny.middleMin).toBe(0);
    expect(tiny.left.minSize + tiny.right.minSize).toBeCloseTo(100);
  });
});

describe('keeping the user’s pixel sizes across container widths', () => {
  it('builds a percent layout that sums to 100 and gives back the same pixels', () => {
    const layout = layoutFromPx({ left: 400, right: 300 }, 1400);
    expect(layout.reduce((a, b) => a + b, 0)).toBeCloseTo(100);
    expect(layout[0]).toBeCloseTo(toPercent(400, 1400));
    expect(pxFromLayout(layout, 1400).left).toBeCloseTo(400);
    expect(pxFromLayout(layout, 1400).right).toBeCloseTo(300);
  });

  it('clamps what was asked to the pixel bounds', () => {
    expect(fitSidePanels({ left: 50, right: 9000 }, 2000)).toEqual({ left: 200, right: 400 });
    expect(fitSidePanels({ left: 700, right: 250 }, 2000)).toEqual({ left: 600, right: 250 });
  });

  it('takes width from both side panels in proportion when the window narrows', () => {
    const fitted = fitSidePanels({ left: 500, right: 400 }, 1000);
    // 1000 - 240 middle = 760 for both; 300 + 200 of slack above the minimums give up 140 together.
    expect(fitted.left + fitted.right).toBeCloseTo(760);
    expect(fitted.left - 200).toBeCloseTo((300 / 500) * 360);
    expect(fitted.right - 200).toBeCloseTo((200 / 500) * 360);
  });
});

describe('code view height (150-500 px, default 300)', () => {
  it('clamps and rounds', () => {
    expect(clampCodeViewHeight(20)).toBe(150);
    expect(clampCodeViewHeight(320.4)).toBe(320);
    expect(clampCodeViewHeight(9999)).toBe(500);
  });
});
