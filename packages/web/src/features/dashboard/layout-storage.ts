import { PANELS } from '@forge/shared/schema-free';
import type { SidePanelPx } from './panel-bounds.ts';

/**
 * The dashboard remembers how the user sized it (per browser). Pixels, not percentages, so a
 * remembered layout means the same thing in a window of another width.
 */
const KEY = 'forge.dashboard.layout';

export interface StoredLayout extends SidePanelPx {
  codeViewHeight: number;
}

const DEFAULTS: StoredLayout = {
  left: PANELS.left.default,
  right: PANELS.right.default,
  codeViewHeight: PANELS.codeViewHeight.default,
};

const isSize = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

export function readStoredLayout(): StoredLayout {
  try {
    const raw = window.localStorage.getItem(KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (!parsed || typeof parsed !== 'object') return DEFAULTS;
    const stored = parsed as Partial<Record<keyof StoredLayout, unknown>>;
    return {
      left: isSize(stored.left) ? stored.left : DEFAULTS.left,
      right: isSize(stored.right) ? stored.right : DEFAULTS.right,
      codeViewHeight: isSize(stored.codeViewHeight) ? stored.codeViewHeight : DEFAULTS.codeViewHeight,
    };
  } catch {
    return DEFAULTS;
  }
}

export function writeStoredLayout(patch: Partial<StoredLayout>): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify({ ...readStoredLayout(), ...patch }));
  } catch {
    /* private mode or full storage: the layout lasts for this tab only */
  }
}
