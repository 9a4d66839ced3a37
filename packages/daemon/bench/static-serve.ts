// Server side of bench/static.bench.ts, one process per run so no server's leftovers (timers, GC,
// an app's background work) weigh on the next one: starts the server named on the command line over
// `root`, prints its URL as one JSON line, then answers each "cpu" line on stdin with this process's
// CPU time so far (µs) and exits when stdin ends.
//   node <bundle of static-serve.ts> <by-hand|preview|web> <root> <home>   (static.bench.ts bundles it)
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { pino } from 'pino';
import { createApp } from '../src/app.ts';
import { startStaticPreview } from '../src/capabilities/preview/static-server.ts';
import { openStore, STORE_FILE } from '../src/store/store.ts';

const [kind, root, home] = process.argv.slice(2) as [string, string, string];

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The reference: stat for the length, then the read stream piped into the response. */
function byHand(): http.Server {
  return http.createServer((req, res) => {
    const file = path.join(root, decodeURIComponent((req.url ?? '/').split('?')[0]!));
    fs.stat(file, (error, info) => {
      if (error || !info.isFile()) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Content-Length': info.size });
      fs.createReadStream(file).pipe(res);
    });
  });
}

let url: string;
if (kind === 'by-hand') {
  url = await listen(byHand());
} else if (kind === 'preview') {
  url = (await startStaticPreview({ root })).url;
} else if (kind === 'web') {
  const store = openStore(path.join(home, STORE_FILE));
  const forge = createApp({
    config: { host: '127.0.0.1', allowedHosts: [], accessToken: null, webRoot: null, home },
    logger: pino({ level: 'silent' }),
    store,
    web: { mode: 'static', root },
    starterProject: false,
  });
  const server = http.createServer(forge.handle);
  await forge.attach(server);
  url = await listen(server);
} else {
  throw new Error(`unknown server kind "${kind}"`);
}

console.log(JSON.stringify({ url }));
const lines = createInterface({ input: process.stdin });
lines.on('line', () => {
  const used = process.cpuUsage();
  console.log(JSON.stringify({ cpu: used.user + used.system }));
});
lines.on('close', () => process.exit(0));
