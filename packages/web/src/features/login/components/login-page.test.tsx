import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AUTH_TOKEN_STORAGE_KEY, ForgeHttpError, UI_TEXT } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { stubDaemon, type RouteHandler } from '@/test/render-panel.tsx';
import { loginErrorText } from '../login-error.ts';
import { formatWait, parseRetryAfter } from '../login-request.ts';
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
    const { requests, fetch } = stubDaemon(onLogin(() => json({ token: 'tok-123' })));
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
    // From now on the token travels with the university's requests.
    await waitFor(() => expect(requests.some((r) => r.path === '/api/extensions')).toBe(true));
    const call = fetch.mock.calls.find(([input]) => String(input) === '/api/extensions');
    expect(new Headers(call?.[1]?.headers).get('authorization')).toBe('Bearer tok-123');
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

  it('says "Login failed" when the daemon cannot log in (500) or cannot be reached', async () => {
    stubDaemon(onLogin(() => json({ error: 'Store is locked.', code: 'INTERNAL' }, 500)));
    await open();
    fill('ada', 'hunter2');
    signIn();
    expect((await screen.findByRole('alert')).textContent).toBe('Login failed500: Store is locked.');

    stubDaemon(onLogin(() => Promise.reject(new TypeError('Failed to fetch'))));
    signIn();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/^Login failedCannot reach/));
    expect(window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('after too many failures, says "Login failed" and how long to wait (429 Retry-After)', async () => {
    stubDaemon(
      onLogin(
        () =>
          new Response(
            JSON.stringify({ error: 'Too many failed logins. Try again later.', code: 'TOO_MANY_ATTEMPTS' }),
            { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '120' } },
          ),
      ),
    );
    const { pathname } = await open();
    fill('ada', 'wrong-again');

    signIn();

    expect((await screen.findByRole('alert')).textContent).toBe(
      `${UI_TEXT.loginFailed}Too many failed logins. Try again in 2 min.`,
    );
    expect(window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
    expect(pathname()).toBe('/login');
  });

  it('reads Retry-After as seconds or a date, and says the wait plainly', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:05:00 GMT', now)).toBe(300);
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    expect([0, 45, 60, 61, 3600, 3660].map(formatWait)).toEqual([
      '1 s',
      '45 s',
      '1 min',
      '2 min',
      '1 h',
      '1 h 1 min',
    ]);
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
