// A small HTTP/1.1 load client for the benchmarks: keep-alive connections on raw sockets, one request
// in flight per connection, bodies counted and dropped (no parsing beyond the headers it needs).
// Runs as its own process so the server under test keeps a core to itself.
//   node http-load.mjs <url> <connections> <seconds>   → prints one JSON line
//   { requests, bytes, errors, seconds, statuses }
// Only ever aimed at 127.0.0.1 by the benches (loopback only).
import net from 'node:net';

const [target, connectionsArg = '8', secondsArg = '3'] = process.argv.slice(2);
const url = new URL(target);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
  console.error('http-load only targets loopback addresses');
  process.exit(2);
}
const connections = Number(connectionsArg);
const seconds = Number(secondsArg);
const request = Buffer.from(
  `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: keep-alive\r\n\r\n`,
);

let requests = 0;
let bytes = 0;
let errors = 0;
const statuses = {};
const deadline = Date.now() + seconds * 1000;
const started = process.hrtime.bigint();

function connection() {
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) });
    socket.setNoDelay(true);
    let head = Buffer.alloc(0);
    let remaining = -1; // body bytes still to come; -1 while reading headers
    const send = () => {
      if (Date.now() >= deadline) {
        socket.end();
        return;
      }
      socket.write(request);
    };
    const onBody = (chunk) => {
      const take = Math.min(remaining, chunk.length);
      remaining -= take;
      bytes += take;
      if (remaining === 0) {
        remaining = -1;
        requests += 1;
        const rest = chunk.subarray(take);
        send();
        if (rest.length) onData(rest);
      }
    };
    const onData = (chunk) => {
      if (remaining >= 0) return onBody(chunk);
      head = head.length ? Buffer.concat([head, chunk]) : chunk;
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const text = head.subarray(0, end).toString('latin1');
      const status = text.slice(9, 12);
      statuses[status] = (statuses[status] ?? 0) + 1;
      const length = /\r\ncontent-length: *(\d+)/i.exec(text);
      if (!length) {
        errors += 1;
        socket.destroy();
        return;
      }
      remaining = Number(length[1]);
      const rest = head.subarray(end + 4);
      head = Buffer.alloc(0);
      if (remaining === 0) onBody(Buffer.alloc(0));
      else if (rest.length) onBody(rest);
    };
    socket.on('connect', send);
    socket.on('data', onData);
    socket.on('error', () => {
      errors += 1;
    });
    socket.on('close', resolve);
  });
}

await Promise.all(Array.from({ length: connections }, () => connection()));
const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
console.log(JSON.stringify({ requests, bytes, errors, seconds: elapsed, statuses }));
