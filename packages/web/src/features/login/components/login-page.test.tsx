import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AUTH_TOKEN_STORAGE_KEY, ForgeHttpError, UI_TEXT } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { notImplemented, stubDaemon, type RouteHandler } from '@/test/render-panel.tsx';
import { loginErrorText } from '../login-error.ts';
// Loaded up front: the route imports the screen lazily, and a cold transform under load can outlast
// a findBy timeout.
import './login-page.tsx';
import '@/features/university/components/university-page.tsx';

const onLogin =
  (answer: () => Response | Promise<Response>): RouteHandler =>
  (req) =>
    req.method === 'POST' && req.url.pathname === '/api/login' ? answer() : undefined;

async function open() {
  const app = renderApp('/login');
  await screen.findByRole('heading', { level: 1, name: 'Login' });
  return app;
}

function fill(username: string, password: string) {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
}

const signIn = () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

beforeEach(() => {
  window.localStorage.clear();
});

describe('login', () => {
  it('says family access is required and requires both fields', async () => {
    const { requests } = stubDaemon(() => undefined);
    await open();
    expect(screen.getByText('Family access required')).toBeDefined();

    signIn();

    expect(screen.getByText('Username is required.')).toBeDefined();
    expect(screen.getByText('Password is required.')).toBeDefined();
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');

    fill('  ', 'secret');
    // Typing into a field clears its note at once; blank-only text does not count.
    expect(screen.queryByText('Password is required.')).toBeNull();
    expect(screen.getByText('Username is required.')).toBeDefined();
    signIn();
    expect(screen.getByText('Username is required.')).toBeDefined();
    expect(screen.queryByText('Password is required.')).toBeNull();
    expect(requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('stores the token as authToken and opens the university', async () => {
    const { requests } = stubDaemon(onLogin(() => json({ token: 'tok-123' })));
    const { pathname } = await open();
    fill('ada', 'hunter2');

    signIn();

    await waitFor(() => expect(pathname()).toBe('/university'));
    expect(window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBe('tok-123');
    expect(requests.find((r) => r.method === 'POST')).toMatchObject({
      path: '/api/login',
      body: { username: 'ada', password: 'hunter2' },
    });
    expect(await screen.findByRole('button', { name: 'Logout' })).toBeDefined();
  });

  it('says "Invalid credentials" when the login is rejected', async () => {
    stubDaemon(
      onLogin(() => json({ error: 'Wrong username or password.', code: 'INVALID_CREDENTIALS' }, 401)),
    );
    const { pathname } = await open();
    fill('ada', 'wrong');

    signIn();

    expect((await screen.findByRole('alert')).textContent).toBe(UI_TEXT.invalidCredentials);
    expect(window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
    expect(pathname()).toBe('/login');
  });

  it('says "Login failed" when the daemon cannot log in (503) or cannot be reached', async () => {
    stubDaemon(onLogin(() => notImplemented()));
    await open();
    fill('ada', 'hunter2');
    signIn();
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Login failed503: /);

    stubDaemon(onLogin(() => Promise.reject(new TypeError('Failed to fetch'))));
    signIn();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/^Login failedCannot reach/));
    expect(window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('treats a refusal by the daemon guard as a failure, not as wrong credentials', () => {
    const body = (code: string) => JSON.stringify({ error: 'x', code });
    expect(loginErrorText(new ForgeHttpError(403, 'Forbidden', body('INVALID_CREDENTIALS')))).toBe(
      UI_TEXT.invalidCredentials,
    );
    expect(loginErrorText(new ForgeHttpError(401, 'Unauthorized', body('TOKEN_REQUIRED')))).toBe(
      UI_TEXT.loginFailed,
    );
    expect(loginErrorText(new ForgeHttpError(403, 'Forbidden', body('ORIGIN_NOT_ALLOWED')))).toBe(
      UI_TEXT.loginFailed,
    );
  });
});
