import { stripVTControlCharacters } from 'node:util';
import { expect, vi } from 'vitest';
import { render as inkRender } from 'ink';
import { render } from 'ink-testing-library';
import { App, type AppProps } from '../app.tsx';
import { createFakeClient, type FakeClient } from './fake-client.ts';
import { FakeTtyInput, FakeTtyOutput } from './fake-tty.ts';

/** Keys as a terminal sends them in raw mode. */
export const KEYS = {
  tab: '\t',
  shiftTab: '\u001B[Z',
  enter: '\r',
  escape: '\u001B',
  backspace: '\u007F',
  up: '\u001B[A',
  down: '\u001B[B',
  end: '\u001B[F',
  home: '\u001B[H',
  ctrlU: '\u0015',
} as const;

/** Frames settle within a few renders; a loaded 2-core CI machine gets generous room. */
export const WAIT = { timeout: 5_000, interval: 20 } as const;

/** vi.waitFor with the dashboard tests' patience. */
export const waitFor = <T,>(check: () => T | Promise<T>) => vi.waitFor(check, WAIT);

export interface RenderAppOptions extends Partial<AppProps> {
  fake?: FakeClient;
  /**
   * A terminal of this size instead of ink-testing-library's 100 columns (whose stream reports no
   * height: the dashboard assumes 40 rows). Drawn by Ink itself into a fake TTY in debug mode,
   * where every write is one whole frame.
   */
  size?: { columns: number; rows: number };
}

/**
 * The dashboard against a fake client, in ink-testing-library (or a fake terminal of `size`).
 * `frame()` is the last frame without colour codes, `rawFrame()` with them.
 */
export function renderApp(options: RenderAppOptions = {}) {
  const { fake = createFakeClient(), size, ...props } = options;
  const openUrl = vi.fn(async (_url: string) => undefined);
  const tree = <App client={fake.client} openUrl={openUrl} {...props} />;

  let rawFrame: () => string;
  let rawFrames: () => readonly string[];
  let press: (keys: string) => void;
  let unmount: () => void;
  if (size) {
    const stdout = new FakeTtyOutput(size);
    const stdin = new FakeTtyInput();
    const instance = inkRender(tree, {
      stdout: stdout.asStream(),
      stdin: stdin.asStream(),
      debug: true,
      patchConsole: false,
    });
    rawFrame = () => stdout.writes.at(-1) ?? '';
    rawFrames = () => stdout.writes;
    press = (keys) => stdin.press(keys);
    unmount = () => instance.unmount();
  } else {
    const view = render(tree);
    rawFrame = () => view.lastFrame() ?? '';
    rawFrames = () => view.frames;
    press = (keys) => view.stdin.write(keys);
    unmount = () => view.unmount();
  }

  const frame = () => stripVTControlCharacters(rawFrame());
  /** Every frame drawn so far, oldest first, without colour codes. */
  const frames = () => rawFrames().map((f) => stripVTControlCharacters(f));
  /** The socket is subscribed and then reported open (the dashboard's effects are live). */
  const connect = async () => {
    await waitFor(() => expect(fake.subscribed).toBe(true));
    fake.setStatus('connected');
  };
  /** Wait until the frame shows `text` (a string or a pattern). */
  const shows = (text: string | RegExp) =>
    waitFor(() =>
      typeof text === 'string' ? expect(frame()).toContain(text) : expect(frame()).toMatch(text),
    );
  /** Lines of the frame that contain `text`. */
  const linesWith = (text: string) =>
    frame()
      .split('\n')
      .filter((line) => line.includes(text));
  return { fake, frame, frames, rawFrame, connect, shows, linesWith, press, openUrl, unmount };
}
