import { PANELS } from '@forge/shared/schema-free';

/**
 * react-resizable-panels (v3) sizes panels in percent of the group; the product gives the side panels in
 * pixels (docs/product.md#dashboard, docs/product.md#constants). These pure functions turn the pixel bounds
 * into percentages of the current container width. The caller recomputes them whenever the container is
 * resized, so a side panel keeps its pixel size when the window changes and only the middle column grows or
 * shrinks.
 */

/** The middle column (preview and brain chat) never gets narrower than this while it fits. */
export const MIDDLE_MIN_PX = 240;

/** Percent constraints of one panel, as react-resizable-panels takes them. */
export interface PercentBounds {
  minSize: number;
  maxSize: number;
  defaultSize: number;
}

export interface SidePanelBounds {
  left: PercentBounds;
  right: PercentBounds;
  /** Minimum of the middle column, percent. */
  middleMin: number;
}

/** Side-panel sizes in pixels. */
export interface SidePanelPx {
  left: number;
  right: number;
}

const clamp = (value: number, min: number, max: number): number => Math.min(Math.max(value, min), max);

export const toPercent = (px: number, containerWidth: number): number =>
  containerWidth > 0 ? (px / containerWidth) * 100 : 0;

interface PxLimits {
  leftMin: number;
  leftMax: number;
  rightMin: number;
  rightMax: number;
  middleMin: number;
}

/**
 * The pixel bounds, tightened only where the container cannot hold them: the middle keeps
 * MIDDLE_MIN_PX while that fits, then gives way; when even the two minimums do not fit (a container
 * under 400 px, which the mobile layout normally prevents), both shrink in proportion.
 */
function pxLimits(width: number): PxLimits {
  let leftMin: number = PANELS.left.min;
  let rightMin: number = PANELS.right.min;
  let middleMin = clamp(width - leftMin - rightMin, 0, MIDDLE_MIN_PX);
  if (leftMin + rightMin > width) {
    const factor = width / (leftMin + rightMin);
    leftMin *= factor;
    rightMin *= factor;
    middleMin = 0;
  }
  const leftMax = clamp(PANELS.left.max, leftMin, width - rightMin - middleMin);
  const rightMax = clamp(PANELS.right.max, rightMin, width - leftMin - middleMin);
  return { leftMin, leftMax, rightMin, rightMax, middleMin };
}

/**
 * Fit wanted side-panel widths into `width`: each is clamped to its bounds, and when the two together
 * leave the middle less than its minimum, both give up width in proportion to what they have above
 * their own minimum.
 */
export function fitSidePanels(wanted: SidePanelPx, width: number): SidePanelPx {
  const limits = pxLimits(width);
  let left = clamp(wanted.left, limits.leftMin, limits.leftMax);
  let right = clamp(wanted.right, limits.rightMin, limits.rightMax);
  const overflow = left + right + limits.middleMin - width;
  if (overflow > 0) {
    const slackLeft = left - limits.leftMin;
    const slackRight = right - limits.rightMin;
    const slack = slackLeft + slackRight;
    if (slack > 0) {
      const share = Math.min(1, overflow / slack);
      left -= slackLeft * share;
      right -= slackRight * share;
    }
  }
  return { left, right };
}

/** Percent constraints of the three columns for a container `width` px wide (width > 0). */
export function sidePanelBounds(width: number): SidePanelBounds {
  const limits = pxLimits(width);
  const defaults = fitSidePanels({ left: PANELS.left.default, right: PANELS.right.default }, width);
  return {
    left: {
      minSize: toPercent(limits.leftMin, width),
      maxSize: toPercent(limits.leftMax, width),
      defaultSize: toPercent(defaults.left, width),
    },
    right: {
      minSize: toPercent(limits.rightMin, width),
      maxSize: toPercent(limits.rightMax, width),
      defaultSize: toPercent(defaults.right, width),
    },
    middleMin: toPercent(limits.middleMin, width),
  };
}

/** The [left, middle, right] percent layout that gives the side panels `px` (fitted) at `width`. */
export function layoutFromPx(px: SidePanelPx, width: number): [number, number, number] {
  const fitted = fitSidePanels(px, width);
  const left = toPercent(fitted.left, width);
  const right = toPercent(fitted.right, width);
  return [left, 100 - left - right, right];
}

/** Side-panel pixels of a percent layout at `width` (what the user dragged to). */
export const pxFromLayout = (layout: readonly number[], width: number): SidePanelPx => ({
  left: ((layout[0] ?? 0) * width) / 100,
  right: ((layout[2] ?? 0) * width) / 100,
});

/** Code view height (docs/product.md#dashboard: 150-500 px, default 300), clamped. */
export const clampCodeViewHeight = (px: number): number =>
  Math.round(clamp(px, PANELS.codeViewHeight.min, PANELS.codeViewHeight.max));
