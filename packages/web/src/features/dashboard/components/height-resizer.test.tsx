import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PANELS } from '@forge/shared';
import { HeightResizer } from './height-resizer.tsx';

function Harness({ onCommit }: { onCommit: (height: number) => void }) {
  const [height, setHeight] = useState<number>(PANELS.codeViewHeight.default);
  return (
    <HeightResizer
      label="Resize the code view"
      value={height}
      min={PANELS.codeViewHeight.min}
      max={PANELS.codeViewHeight.max}
      onChange={setHeight}
      onCommit={onCommit}
    />
  );
}

describe('code view height divider (150-500 px, default 300)', () => {
  it('moves with the keyboard and never leaves its bounds', () => {
    const onCommit = vi.fn();
    render(<Harness onCommit={onCommit} />);
    const divider = screen.getByRole('separator', { name: 'Resize the code view' });
    const value = () => Number(divider.getAttribute('aria-valuenow'));
    expect(value()).toBe(300);
    expect(divider.getAttribute('aria-valuemin')).toBe('150');
    expect(divider.getAttribute('aria-valuemax')).toBe('500');

    fireEvent.keyDown(divider, { key: 'ArrowDown' });
    expect(value()).toBe(310);
    fireEvent.keyDown(divider, { key: 'ArrowUp', shiftKey: true });
    expect(value()).toBe(260);
    fireEvent.keyDown(divider, { key: 'End' });
    expect(value()).toBe(500);
    fireEvent.keyDown(divider, { key: 'ArrowDown' });
    expect(value()).toBe(500);
    fireEvent.keyDown(divider, { key: 'Home' });
    expect(value()).toBe(150);
    expect(onCommit).toHaveBeenLastCalledWith(150);
  });

  it('follows a pointer drag, clamped, and reports where it was let go', () => {
    const onCommit = vi.fn();
    render(<Harness onCommit={onCommit} />);
    const divider = screen.getByRole('separator', { name: 'Resize the code view' });

    fireEvent.pointerDown(divider, { button: 0, clientY: 400, pointerId: 1 });
    fireEvent.pointerMove(divider, { clientY: 480, pointerId: 1 });
    expect(divider.getAttribute('aria-valuenow')).toBe('380');
    fireEvent.pointerMove(divider, { clientY: 9000, pointerId: 1 });
    expect(divider.getAttribute('aria-valuenow')).toBe('500');
    fireEvent.pointerUp(divider, { pointerId: 1 });

    expect(onCommit).toHaveBeenCalledWith(500);
  });
});
