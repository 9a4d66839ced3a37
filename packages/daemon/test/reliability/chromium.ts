export { CHROMIUM, hasChromium, launchChromium } from '@forge/testing/chromium';

/** One attempt of the hostile page, as its script reports it. */
export interface AttackResult {
  name: string;
  /** "answered <type> <status>" when the browser handed the page an answer, else "refused <error>". */
  outcome: string;
  /** What the page could read of the answer (only ever possible with CORS access). */
  body?: string;
}

/**
 * The script of a hostile page on another loopback origin (a preview, an extension). It reads the
 * daemon's origin from its URL fragment and tries what a page can do without the daemon's consent:
 * a preflighted JSON POST, "simple" requests that need no preflight (text/plain JSON, a multipart
 * upload of a project, which would run its build), reads with and without CORS, and a WebSocket.
 * The results land in `window.__attacks` for the test to collect.
 */
export function attackScript(zipBase64: string, uploadPath: string, uploadField: string): string {
  return `
const daemon = decodeURIComponent(location.hash.slice(1));
const zip = Uint8Array.from(atob(${JSON.stringify(zipBase64)}), (c) => c.charCodeAt(0));
async function attempt(name, url, init) {
  try {
    const res = await fetch(url, init);
    let body;
    try { body = await res.text(); } catch (e) { body = undefined; }
    return { name, outcome: 'answered ' + res.type + ' ' + res.status, body };
  } catch (error) {
    return { name, outcome: 'refused ' + error.name };
  }
}
function socket() {
  return new Promise((resolve) => {
    const ws = new WebSocket(daemon.replace(/^http/, 'ws') + '/ws');
    ws.onopen = () => { ws.close(); resolve({ name: 'websocket', outcome: 'answered open' }); };
    ws.onerror = () => resolve({ name: 'websocket', outcome: 'refused error' });
  });
}
async function run() {
  const form = new FormData();
  form.set(${JSON.stringify(uploadField)}, new Blob([zip], { type: 'application/zip' }), 'hostile.zip');
  const results = [
    await attempt('json-post', daemon + '/api/settings', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ debugMode: true }),
    }),
    await attempt('text-plain-post', daemon + '/api/settings', {
      method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ debugMode: true }),
    }),
    await attempt('multipart-upload', daemon + ${JSON.stringify(uploadPath)}, { method: 'POST', mode: 'no-cors', body: form }),
    await attempt('cors-read', daemon + '/api/settings', {}),
    await attempt('no-cors-read', daemon + '/api/settings', { mode: 'no-cors' }),
    await socket(),
  ];
  window.__attacks = results;
  document.title = 'done';
}
run();
`;
}

export const ATTACK_PAGE = '<!doctype html><title>hostile</title><script src="attack.js"></script>';
