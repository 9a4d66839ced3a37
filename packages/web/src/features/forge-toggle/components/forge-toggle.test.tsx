import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '@/test/fake-daemon.ts';
import {
  DAEMON_FAILURE_TEXT,
  daemonFailure,
  renderPanel,
  stubDaemon,
  type RouteRequest,
} from '@/test/render-panel.tsx';
import { AutoForgeToggle } from './auto-forge-toggle.tsx';
import { ForgeToggleSwitch } from './forge-toggle-switch.tsx';

const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)' }));
const autoForge = () => screen.getByRole('button', { name: /Auto-Forge/ });
const headerToggle = () => screen.getByRole('button', { name: 'Forge toggle' });

/** A daemon whose POST /api/forge/toggle answers only when the test says so. */
function deferredToggle(initial: Response | (() => Response)) {
  const answers: ((res: Response) => void)[] = [];
  const daemon = stubDaemon((request: RouteRequest) => {
    if (request.url.pathname !== '/api/forge/toggle') return undefined;
    if (request.method === 'GET') return typeof initial === 'function' ? initial() : initial.clone();
    return new Promise<Response>((resolve) => answers.push(resolve));
  });
  return {
    daemon,
    /** Answer the oldest POST, once it has been sent (mutations start on the next tick). */
    answer: async (res: Response) => {
      await waitFor(() => expect(answers.length).toBeGreaterThan(0));
      answers.shift()!(res);
    },
  };
}

describe('Auto-Forge toggle (docs/product.md#live-state)', () => {
  it('starts on, shows a processing state, and flips only after the daemon answers', async () => {
    const { daemon, answer } = deferredToggle(json({ active: true }));
    renderPanel(<AutoForgeToggle />);
    await waitFor(() => expect(daemon.requests.some((r) => r.method === 'GET')).toBe(true));
    expect(autoForge().getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('auto-forge-state').textContent).toBe('On');

    fireEvent.click(autoForge());

    await waitFor(() => expect(screen.getByTestId('auto-forge-state').textContent).toBe('Processing…'));
    expect(autoForge().getAttribute('aria-busy')).toBe('true');
    expect(autoForge().hasAttribute('disabled')).toBe(true);
    expect(autoForge().getAttribute('aria-pressed')).toBe('true');
    expect(daemon.requests.filter((r) => r.method === 'POST')).toEqual([
      expect.objectContaining({ path: '/api/forge/toggle', body: { active: false }, credentials: 'include' }),
    ]);

    await answer(json({ active: false }));

    await waitFor(() => expect(screen.getByTestId('auto-forge-state').textContent).toBe('Off'));
    expect(autoForge().getAttribute('aria-pressed')).toBe('false');
    expect(autoForge().hasAttribute('disabled')).toBe(false);
  });

  it('shows on while the state is unknown, and stays as it was when the daemon refuses', async () => {
    const { answer } = deferredToggle(() => daemonFailure());
    renderPanel(<AutoForgeToggle />);
    expect(screen.getByTestId('auto-forge-state').textContent).toBe('On');

    fireEvent.click(autoForge());
    await waitFor(() => expect(screen.getByTestId('auto-forge-state').textContent).toBe('Processing…'));
    await answer(daemonFailure());

    expect(await notices().findByText(DAEMON_FAILURE_TEXT)).toBeDefined();
    expect(screen.getByTestId('auto-forge-state').textContent).toBe('On');
    expect(autoForge().getAttribute('aria-pressed')).toBe('true');
  });
});

describe('header forge toggle (docs/product.md#dashboard, docs/product.md#live-state)', () => {
  it('sets its flag at once, then keeps what the daemon answered', async () => {
    const { daemon, answer } = deferredToggle(json({ active: false }));
    renderPanel(<ForgeToggleSwitch />);
    await waitFor(() => expect(headerToggle().getAttribute('aria-pressed')).toBe('false'));

    fireEvent.click(headerToggle());

    expect(headerToggle().getAttribute('aria-pressed')).toBe('true');
    await answer(json({ active: true }));
    expect(daemon.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ active: true }]);
    await waitFor(() => expect(headerToggle().getAttribute('aria-pressed')).toBe('true'));
  });

  it('goes back and says why when the daemon refuses', async () => {
    const { answer } = deferredToggle(json({ active: true }));
    renderPanel(<ForgeToggleSwitch />);
    await waitFor(() => expect(headerToggle().getAttribute('aria-pressed')).toBe('true'));

    fireEvent.click(headerToggle());
    expect(headerToggle().getAttribute('aria-pressed')).toBe('false');
    await answer(daemonFailure());

    expect(await notices().findByText('Auto-forge was not turned off')).toBeDefined();
    expect(notices().getByText(DAEMON_FAILURE_TEXT)).toBeDefined();
    expect(headerToggle().getAttribute('aria-pressed')).toBe('true');
  });

  it('shows the same flag as the Auto-Forge button', async () => {
    const { answer } = deferredToggle(json({ active: true }));
    renderPanel(
      <>
        <ForgeToggleSwitch />
        <AutoForgeToggle />
      </>,
    );
    await waitFor(() => expect(autoForge().getAttribute('aria-pressed')).toBe('true'));

    fireEvent.click(autoForge());
    await answer(json({ active: false }));

    await waitFor(() => expect(headerToggle().getAttribute('aria-pressed')).toBe('false'));
  });
});
