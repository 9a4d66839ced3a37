// One autocannon group of the load test, on its own thread. Several autocannon instances sharing one
// event loop starve each other (measured: 300 + 150 connections to /api/health for 4 s gave the first
// instance 15,156 requests and the second 7), so each group runs in a worker of its own and the
// answers are checked here, where they arrive.
// workerData: { group, url, connections, duration?, amount?, timeout, requests: [{ method?, path,
// headers?, body? }] }.
// Messages in: { type: 'start' }. Messages out: { type: 'ready' }, { type: 'connected' } once every
// connection got an answer (or the run ended), then { type: 'result', figures, statuses, overloaded,
// bad5xx }.
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

const { group, url, connections, duration, amount, timeout, requests } = workerData;

/** Answers by status code; 503 OVERLOADED + Retry-After counted apart; any other 5xx sampled. */
const statuses = {};
let overloaded = 0;
const bad5xx = [];
const BAD_SAMPLES = 20;

function check(status, body, _context, headers) {
  statuses[status] = (statuses[status] ?? 0) + 1;
  if (status < 500) return;
  const retryAfter = headers['retry-after'] ?? headers['Retry-After'];
  let code;
  try {
    code = JSON.parse(body).code;
  } catch {
    code = undefined;
  }
  if (status === 503 && code === 'OVERLOADED' && retryAfter !== undefined && Number(retryAfter) > 0) {
    overloaded++;
  } else if (bad5xx.length < BAD_SAMPLES) {
    bad5xx.push({ group, status, body: String(body).slice(0, 300), retryAfter });
  }
}

parentPort.once('message', async (message) => {
  if (message.type !== 'start') return;
  const options = {
    url,
    connections,
    ...(duration !== undefined ? { duration } : {}),
    ...(amount !== undefined ? { amount } : {}),
    timeout,
  };
  const instance = autocannon({ ...options, requests: requests.map((r) => ({ ...r, onResponse: check })) });
  // The connections that got at least one answer: the daemon accepts one new connection per turn of
  // its event loop (libuv >= 1.45), so under load a connection may wait in the kernel's accept queue.
  const answered = new Set();
  let connectedSent = false;
  const connected = () => {
    if (connectedSent) return;
    connectedSent = true;
    parentPort.postMessage({ type: 'connected' });
  };
  instance.on('response', (client) => {
    answered.add(client);
    if (answered.size >= connections) connected();
  });
  // Off the main thread autocannon hands back its raw histograms (its own worker mode merges them
  // in the parent): aggregate them here, as the main thread would.
  const raw = await instance;
  connected();
  const result = autocannon.aggregateResult([raw], options);
  parentPort.postMessage({
    type: 'result',
    figures: {
      requests: result.requests.total,
      durationS: result.duration,
      connectionsServed: answered.size,
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      errors: result.errors,
      timeouts: result.timeouts,
    },
    statuses,
    overloaded,
    bad5xx,
  });
});
parentPort.postMessage({ type: 'ready' });
