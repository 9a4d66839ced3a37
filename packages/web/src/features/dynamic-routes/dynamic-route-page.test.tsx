// @vitest-environment-options {"settings":{"navigation":{"disableChildFrameNavigation":true}}}
// The frames point at ports nothing listens on: happy-dom must not try to navigate them.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UI_TEXT, type DynamicRoute } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { stubDaemon } from '@/test/render-panel.tsx';
import { renderApp } from '@/test/render-app.tsx';
import { findDynamicRoute } from './dynamic-route-page.tsx';

const hello: DynamicRoute = {
  path: '/ext/hello',
  name: 'hello',
  displayName: 'Hello panel',
  description: 'Says hello.',
  kind: 'extension',
  url: 'http://127.0.0.1:45123/index.html',
};
const site: DynamicRoute = {
  path: '/apps/site',
  name: 'site',
  displayName: 'site',
  description: 'An integrated build.',
  kind: 'app',
  url: null,
};

/** A daemon whose GET /api/dynamic-routes answers `list` (what the test sets it to). */
function daemonWithRoutes(list: () => DynamicRoute[] | Response) {
  return stubDaemon(({ url, method }) => {
    if (method !== 'GET' || url.pathname !== '/api/dynamic-routes') return undefined;
    const answer = list();
    return answer instanceof Response ? answer : json(answer);
  });
}

describe('dynamic routes (GET /api/dynamic-routes)', () => {
  it('shows an extension in a sandboxed frame that may not share the workspace origin', async () => {
    daemonWithRoutes(() => [hello]);
    renderApp('/ext/hello');

    const frame = await screen.findByTitle('Hello panel');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe('http://127.0.0.1:45123/index.html');
    const sandbox = frame.getAttribute('sandbox') ?? '';
    expect(sandbox.split(/\s+/).sort()).toEqual(['allow-forms', 'allow-popups', 'allow-scripts']);
    expect(sandbox).not.toContain('allow-same-origin');
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
    // The workspace header stays around it.
    expect(screen.getByRole('button', { name: 'Forge assistant' })).toBeDefined();
    expect(screen.queryByText(UI_TEXT.notFoundTitle)).toBeNull();
  });

  it('says the app is starting while it has no URL yet, then frames it once it has one', async () => {
    let current: DynamicRoute = site;
    daemonWithRoutes(() => [current]);
    const { queryClient } = renderApp('/apps/site/');

    expect(await screen.findByText('site is starting…')).toBeDefined();
    expect(screen.queryByTitle('site')).toBeNull();

    current = { ...site, url: 'http://127.0.0.1:45124/' };
    await queryClient.invalidateQueries({ queryKey: ['api', 'dynamic-routes'] });
    expect((await screen.findByTitle('site')).getAttribute('src')).toBe('http://127.0.0.1:45124/');
  });

  it('still shows the 404 page for a path no route claims', async () => {
    daemonWithRoutes(() => [hello]);
    renderApp('/ext/nope');

    expect(await screen.findByText(UI_TEXT.notFoundTitle)).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Forge assistant' })).not.toBeNull();
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('shows the 404 page when the list cannot be read', async () => {
    daemonWithRoutes(() => json({ error: 'down', code: 'INTERNAL' }, 500));
    renderApp('/ext/hello');

    expect(await screen.findByText(UI_TEXT.notFoundTitle)).toBeDefined();
  });

  it('the header links every route, and following one opens it in the workspace', async () => {
    daemonWithRoutes(() => [hello, { ...site, url: 'http://127.0.0.1:45124/' }]);
    const { pathname } = renderApp('/');

    const nav = await screen.findByRole('navigation', { name: 'Extensions' });
    const link = await within(nav).findByRole('link', { name: 'Hello panel' });
    expect(within(nav).getByRole('link', { name: 'site' }).getAttribute('href')).toBe('/apps/site');
    fireEvent.click(link);

    await waitFor(() => expect(pathname()).toBe('/ext/hello'));
    expect((await screen.findByTitle('Hello panel')).tagName).toBe('IFRAME');
  });
});

describe('findDynamicRoute', () => {
  it('ignores a trailing slash and matches whole paths only', () => {
    expect(findDynamicRoute([hello], '/ext/hello/')).toBe(hello);
    expect(findDynamicRoute([hello], '/ext/hello')).toBe(hello);
    expect(findDynamicRoute([hello], '/ext/hello/more')).toBeUndefined();
    expect(findDynamicRoute([hello], '/ext')).toBeUndefined();
  });
});
