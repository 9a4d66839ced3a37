import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { installFakeDaemon } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';

// A screen that cannot render, like one whose chunk is gone after a rebuild.
vi.mock('@/features/settings/components/settings-page.tsx', () => ({
  SettingsPage: () => {
    throw new Error('Failed to fetch dynamically imported module: /assets/settings-page-old.js');
  },
}));

describe('a screen that fails (docs/product.md#routes-and-navigation)', () => {
  it('says so inside the shell, and the next navigation renders the new screen', async () => {
    installFakeDaemon();
    // React reports the error it caught; that report is expected here.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { pathname } = renderApp('/settings');

      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain('This screen failed to load');
      expect(alert.textContent).toContain('/assets/settings-page-old.js');
      expect(within(alert).getByRole('button', { name: 'Reload' })).toBeDefined();
      // The shell is still there to navigate with.
      const nav = (await screen.findAllByRole('navigation', { name: 'Main' }))[0]!;
      fireEvent.click(within(nav).getByRole('link', { name: 'Dashboard' }));

      expect(await screen.findByRole('region', { name: 'Project upload' })).toBeDefined();
      expect(pathname()).toBe('/');
      expect(screen.queryByText('This screen failed to load')).toBeNull();
    } finally {
      consoleError.mockRestore();
    }
  });
});
