// The load test's observers, on their own thread so the load generator's busy event loop does not
// distort what they measure: `clients` /ws clients that read every message (log-line lag measured
// from the timestamp each flood line carries), one /ws client that never reads (a raw socket,
// paused), and a probe that asks GET /api/health back to back (latency of every answer).
// Messages in: { type: 'stop', slowTimeoutMs } once the load has sent its last message (a
// settings-updated broadcast): the readers wait for it, then the slow client reads again.
// Messages out: { type: 'ready' }, { type: 'first-line' }, { type: 'report', ... }. The report also
// says how many bytes the readers got and how fast (MB/s across them all): this one thread reads
// every client, so its throughput is what the lag figures measure once the daemon outpaces it.
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { WebSocket } from 'ws';

const { url, clients: clientCount, marker, withSlowClient = true } = workerData;
const { hostname, port } = new URL(url);
const markerBytes = Buffer.from(`${marker} `);
/** The last message of the run: the load sends a settings change once every flood build has ended. */
const sentinelBytes = Buffer.from('"type":"settings-updated"');
const isSentinel = (buf) => buf.indexOf(sentinelBytes) >= 0;

/** Lags in ms of every flood message any reading client got (a histogram: index = ms, capped). */
const LAG_CAP_MS = 120_000;
const lagHistogram = new Uint32Array(LAG_CAP_MS + 1);
let lagSamples = 0;
let firstLineSeen = false;
/** Flood-frame bytes all reading clients got, and when the first and last such frame arrived. */
let floodBytesTotal = 0;
let firstFloodAt = null;
let lastFloodAt = null;
const sentinelWaiters = [];

/** The newest flood line's timestamp in a build-output frame, read without parsing the JSON. */
function lastFloodStamp(buf) {
  const at = buf.lastIndexOf(markerBytes);
  if (at < 0) return null;
  // "<marker> <seq> <epoch-ms> ..."
  const rest = buf.subarray(at + markerBytes.length, at + markerBytes.length + 40).toString('latin1');
  const m = /^(\d+) (\d+)/.exec(rest);
  return m ? { seq: Number(m[1]), ts: Number(m[2]) } : null;
}

function readingClient(index) {
  const state = {
    index,
    open: false,
    closeCode: null,
    messages: 0,
    bytes: 0,
    lastSeq: -1,
    maxLagMs: 0,
    finished: false,
  };
  const ws = new WebSocket(`ws://${hostname}:${port}/ws`, { perMessageDeflate: false });
  ws.binaryType = 'nodebuffer';
  ws.on('open', () => (state.open = true));
  ws.on('message', (data) => {
    state.messages++;
    state.bytes += data.length;
    const stamp = lastFloodStamp(data);
    if (stamp) {
      const now = performance.now();
      firstFloodAt ??= now;
      lastFloodAt = now;
      floodBytesTotal += data.length;
      const lag = Math.max(0, Date.now() - stamp.ts);
      lagHistogram[Math.min(lag, LAG_CAP_MS)]++;
      lagSamples++;
      state.maxLagMs = Math.max(state.maxLagMs, lag);
      state.lastSeq = Math.max(state.lastSeq, stamp.seq);
      if (!firstLineSeen) {
        firstLineSeen = true;
        parentPort.postMessage({ type: 'first-line' });
      }
    } else if (isSentinel(data)) {
      state.finished = true;
      for (const wake of sentinelWaiters.splice(0)) wake();
    }
  });
  ws.on('close', (code) => {
    state.open = false;
    state.closeCode = code;
  });
  ws.on('error', () => undefined);
  const opened = new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { state, ws, opened };
}

/** A /ws client on a bare TCP socket that stops reading right after the handshake. */
async function slowClient() {
  const state = { dropped: false, closeCode: null, bytesRead: 0, caughtUp: false };
  const socket = net.connect(Number(port), hostname);
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  const key = crypto.randomBytes(16).toString('base64');
  socket.write(
    `GET /ws HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  await new Promise((resolve, reject) => {
    let head = '';
    const onData = (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.pause(); // never reads again until told to: the kernel buffers fill, then the daemon's
      if (head.startsWith('HTTP/1.1 101')) resolve();
      else reject(new Error(`slow client refused: ${head.split('\r\n')[0]}`));
    };
    socket.on('data', onData);
  });
  let tail = Buffer.alloc(0);
  const ended = new Promise((resolve) => socket.once('close', resolve));
  return {
    state,
    /** Read again; resolves once the daemon has closed the connection or the client caught up. */
    async resume(timeoutMs) {
      socket.on('data', (chunk) => {
        state.bytesRead += chunk.length;
        const joined = Buffer.concat([tail, chunk]);
        // A close frame from the server: 0x88, a length byte, then the 2-byte code.
        const close = joined.lastIndexOf(0x88);
        if (close >= 0 && close + 3 < joined.length && joined[close + 1] >= 2 && joined[close + 1] < 126) {
          const code = joined.readUInt16BE(close + 2);
          if (code >= 1000 && code < 5000) state.closeCode = code;
        }
        if (isSentinel(joined)) {
          state.caughtUp = true;
          socket.destroy();
        }
        tail = joined.subarray(Math.max(0, joined.length - 512));
      });
      socket.resume();
      const timer = setTimeout(() => socket.destroy(), timeoutMs);
      await ended;
      clearTimeout(timer);
      state.dropped = !state.caughtUp;
    },
  };
}

/** GET /api/health one after another on a keep-alive connection; every latency recorded. */
function healthProbe() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const state = { asked: 0, answered: 0, failed: 0, statuses: {}, latencies: [] };
  let running = true;
  const once = () =>
    new Promise((resolve) => {
      const started = performance.now();
      state.asked++;
      const req = http.get({ hostname, port, path: '/api/health', agent, timeout: 10_000 }, (res) => {
        res.resume();
        res.on('end', () => {
          state.statuses[res.statusCode] = (state.statuses[res.statusCode] ?? 0) + 1;
          if (res.statusCode === 200) {
            state.answered++;
            state.latencies.push(performance.now() - started);
          } else state.failed++;
          resolve();
        });
      });
      req.on('timeout', () => req.destroy(new Error('health probe timed out')));
      req.on('error', () => {
        state.failed++;
        resolve();
      });
    });
  const done = (async () => {
    while (running) {
      await once();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    agent.destroy();
  })();
  return {
    state,
    stop: () => {
      running = false;
      return done;
    },
  };
}

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null;

function lagPercentile(p) {
  if (lagSamples === 0) return null;
  const wanted = Math.ceil((p / 100) * lagSamples);
  let seen = 0;
  for (let ms = 0; ms <= LAG_CAP_MS; ms++) {
    seen += lagHistogram[ms];
    if (seen >= wanted) return ms;
  }
  return LAG_CAP_MS;
}

const readers = Array.from({ length: clientCount - 1 }, (_, i) => readingClient(i));
await Promise.all(readers.map((r) => r.opened));
// Without it (the A/B comparison of the bench), a stand-in that reports it was never there.
const slow = withSlowClient
  ? await slowClient()
  : {
      state: { dropped: false, closeCode: null, bytesRead: 0, caughtUp: true, absent: true },
      resume: async () => {},
    };
const probe = healthProbe();
parentPort.postMessage({ type: 'ready' });

parentPort.on('message', async (message) => {
  if (message.type !== 'stop') return;
  await probe.stop();
  // Every reading client still connected gets the last message before the slow one reads again.
  const deadline = Date.now() + (message.slowTimeoutMs ?? 20_000);
  while (readers.some((r) => r.state.open && !r.state.finished) && Date.now() < deadline) {
    await new Promise((resolve) => {
      sentinelWaiters.push(resolve);
      setTimeout(resolve, 250);
    });
  }
  await slow.resume(message.slowTimeoutMs ?? 20_000);
  const sorted = [...probe.state.latencies].sort((a, b) => a - b);
  const states = readers.map((r) => r.state);
  const deliveryWindowMs = firstFloodAt === null ? null : lastFloodAt - firstFloodAt;
  for (const r of readers) r.ws.terminate();
  parentPort.postMessage({
    type: 'report',
    health: {
      asked: probe.state.asked,
      answered: probe.state.answered,
      failed: probe.state.failed,
      statuses: probe.state.statuses,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.at(-1) ?? null,
    },
    readers: {
      count: states.length,
      stillOpen: states.filter((s) => s.open).length,
      closeCodes: states.filter((s) => s.closeCode !== null).map((s) => s.closeCode),
      sawLastMessage: states.filter((s) => s.finished).length,
      lastSeqMin: Math.min(...states.map((s) => s.lastSeq)),
      lastSeqMax: Math.max(...states.map((s) => s.lastSeq)),
      messagesMin: Math.min(...states.map((s) => s.messages)),
      lagP50Ms: lagPercentile(50),
      lagP99Ms: lagPercentile(99),
      lagMaxMs: Math.max(0, ...states.map((s) => s.maxLagMs)),
      lagSamples,
      bytesMin: Math.min(...states.map((s) => s.bytes)),
      bytesMax: Math.max(...states.map((s) => s.bytes)),
      floodBytesTotal,
      deliveryWindowMs: deliveryWindowMs === null ? 0 : Math.round(deliveryWindowMs),
      deliveryMBps:
        deliveryWindowMs && deliveryWindowMs > 0
          ? Math.round((floodBytesTotal / 1048576 / (deliveryWindowMs / 1000)) * 10) / 10
          : null,
    },
    slow: slow.state,
  });
});
