import { sanitizeLine } from '@forge/shared';

/**
 * Where a server app says it listens, from a line of its output: a URL it prints ("➜ Local:
 * http://localhost:5173/", "http://[::1]:4000") or a sentence with a port ("Listening on port
 * 8080", "listening on :3000"). What an app prints is only a hint: PreviewBot takes the port only
 * when one of the app's own processes holds a listening socket on it.
 */

export interface PrintedAddress {
  port: number;
  /** What it printed: the URL, or the line that named the port. */
  text: string;
  /** https when it printed an https URL. */
  scheme: 'http' | 'https';
}

const URL_PATTERN = /\b(https?):\/\/(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})(?:\/[^\s'"`<>)\]]*)?/;
const PORT_SENTENCE =
  /\b(?:listen(?:s|ing)?|running|started|serving|server|available|ready)\b[^\n]*?\bport\b\s*[:=]?\s*(\d{1,5})\b/i;
const LISTEN_ON = /\blisten(?:s|ing)? (?:on|at) (?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])?:(\d{1,5})\b/i;
/** Node's inspector ("Debugger listening on ws://127.0.0.1:9229/…") is never the app. */
const INSPECTOR = /Debugger listening on wss?:\/\/[^\s/]*:(\d{1,5})/;

/** What is kept of a printed line (it is quoted in the build's log and record). */
const MAX_TEXT = 200;

const validPort = (text: string | undefined): number | null => {
  const port = Number(text);
  return Number.isInteger(port) && port > 0 && port < 65_536 ? port : null;
};

/** The address a line says the app listens on, or null. */
export function printedAddress(line: string): PrintedAddress | null {
  const text = sanitizeLine(line);
  if (INSPECTOR.test(text)) return null;
  const url = URL_PATTERN.exec(text);
  if (url) {
    const port = validPort(url[3]);
    if (port !== null) return { port, text: url[0], scheme: url[1]!.toLowerCase() as 'http' | 'https' };
  }
  const sentence = PORT_SENTENCE.exec(text) ?? LISTEN_ON.exec(text);
  const port = validPort(sentence?.[1]);
  // The whole line: "Express server listening on port: 3001" reads better than a piece of it.
  return port === null ? null : { port, text: text.trim().slice(0, MAX_TEXT), scheme: 'http' };
}

/** A port the line says is Node's inspector (to leave out of the app's sockets), or null. */
export function inspectorPort(line: string): number | null {
  return validPort(INSPECTOR.exec(sanitizeLine(line))?.[1]);
}
