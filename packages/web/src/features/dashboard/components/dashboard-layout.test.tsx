import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MOBILE_BREAKPOINT_PX } from '@forge/shared';
import { DashboardLayout } from './dashboard-layout.tsx';

/** A matchMedia that answers max-width queries against `width`, and can be told the window changed. */
function stubViewport(initialWidth: number) {
  let width = initialWidth;
  const listeners = new Set<() => void>();
  const matches = (query: string) => {
    const max = /max-width:\s*(\d+(?:\.\d+)?)px/.exec(query);
    return max ? width <= Number(max[1]) : false;
  };
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return matches(query);
    },
    media: query,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  }));
  return {
    resize(next: number) {
      width = next;
      act(() => listeners.forEach((listener) => listener()));
    },
  };
}

const slots = {
  left: <p>code view</p>,
  preview: <p>preview</p>,
  chat: <p>brain chat</p>,
  right: <p>actions</p>,
};

afterEach(() => window.localStorage.clear());

describe('dashboard layout (docs/product.md#dashboard)', () => {
  it('stacks the side panels at full width under 768 px, in column order, with nothing to drag', () => {
    stubViewport(MOBILE_BREAKPOINT_PX - 1);
    const { container } = render(<DashboardLayout {...slots} />);

    const layout = container.querySelector('[data-layout]')!;
    expect(layout.getAttribute('data-layout')).toBe('stacked');
    const regions = [
      screen.getByRole('region', { name: 'Workspace' }),
      screen.getByRole('region', { name: 'Preview and chat' }),
      screen.getByRole('complementary', { name: 'Project actions' }),
    ];
    expect(regions.map((r) => r.textContent)).toEqual(['code view', 'previewbrain chat', 'actions']);
    for (const region of regions) expect(region.className).toContain('w-full');
    expect(screen.queryAllByRole('separator')).toHaveLength(0);
  });

  it('shows three resizable columns from 768 px, the side panels at their default pixel widths', () => {
    stubViewport(MOBILE_BREAKPOINT_PX);
    const { container } = render(<DashboardLayout {...slots} />);

    expect(container.querySelector('[data-layout]')!.getAttribute('data-layout')).toBe('columns');
    expect(screen.getByRole('separator', { name: 'Resize the left column' })).toBeDefined();
    expect(screen.getByRole('separator', { name: 'Resize the right column' })).toBeDefined();
    expect(screen.getByRole('separator', { name: 'Resize the preview' })).toBeDefined();

    // Without a layout engine the container measures as the window: 1024 px in happy-dom.
    const width = window.innerWidth;
    const size = (name: string) =>
      Number(
        (screen.getByRole(name === 'Project actions' ? 'complementary' : 'region', { name }) as HTMLElement)
          .dataset.panelSize,
      );
    expect(size('Workspace')).toBeCloseTo((320 / width) * 100, 0);
    expect(size('Project actions')).toBeCloseTo((256 / width) * 100, 0);
    // The preview share is a percentage already: 50 of 20-80.
    const preview = within(screen.getByRole('region', { name: 'Preview and chat' }))
      .getByText('preview')
      .closest('[data-panel-size]') as HTMLElement;
    expect(Number(preview.dataset.panelSize)).toBe(50);
  });

  it('switches to the stacked layout when the window narrows under the breakpoint', () => {
    const viewport = stubViewport(1200);
    const { container } = render(<DashboardLayout {...slots} />);
    expect(container.querySelector('[data-layout]')!.getAttribute('data-layout')).toBe('columns');

    viewport.resize(600);

    expect(container.querySelector('[data-layout]')!.getAttribute('data-layout')).toBe('stacked');
    expect(screen.getByText('code view')).toBeDefined();
  });

  it('starts from the pixel widths the user left last time', () => {
    stubViewport(1200);
    window.localStorage.setItem('forge.dashboard.layout', JSON.stringify({ left: 400, right: 300 }));
    render(<DashboardLayout {...slots} />);

    const width = window.innerWidth;
    const left = Number((screen.getByRole('region', { name: 'Workspace' }) as HTMLElement).dataset.panelSize);
    expect(left).toBeCloseTo((400 / width) * 100, 0);
  });
});
