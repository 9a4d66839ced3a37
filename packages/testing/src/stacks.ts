import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { makeZip } from './zip.ts';

/** A wheel of these files (package paths → contents) with its metadata, as `pip wheel` writes it. */
function wheelOf(
  name: string,
  version: string,
  files: Record<string, string | Buffer>,
  metadata = '',
  infoFiles: Record<string, string> = {},
): Buffer {
  const info = `${name}-${version}.dist-info`;
  const all: Record<string, string | Buffer> = {
    ...files,
    ...Object.fromEntries(Object.entries(infoFiles).map(([file, text]) => [`${info}/${file}`, text])),
    [`${info}/METADATA`]: `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n${metadata}`,
    [`${info}/WHEEL`]:
      'Wheel-Version: 1.0\nGenerator: forge-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
  };
  // A RECORD without hashes is accepted by pip.
  all[`${info}/RECORD`] = [...Object.keys(all), `${info}/RECORD`].map((f) => `${f},,`).join('\n') + '\n';
  return makeZip(all);
}

/**
 * A pure-Python wheel of one module, as `pip wheel` writes it: pip installs it offline from a
 * --find-links folder in the project. `metadata`: more METADATA headers ("License: MIT").
 */
export function pythonWheel(name: string, version: string, module: string, metadata = ''): Buffer {
  return wheelOf(name, version, { [`${name}/__init__.py`]: module }, metadata);
}

/**
 * A wheel of a pure-Python package installed on this machine (Debian's python3-django in
 * /usr/lib/python3/dist-packages/django…), for a test that needs the real package without an index.
 */
export function pythonWheelOfInstalled(name: string, version: string, packageDir: string): Buffer {
  const files: Record<string, Buffer> = {};
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '__pycache__') continue;
      const abs = path.join(dir, entry.name);
      const to = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(abs, to);
      else if (entry.isFile()) files[to] = fs.readFileSync(abs);
    }
  };
  walk(packageDir, path.basename(packageDir));
  return wheelOf(name, version, files);
}

/**
 * A pure-Python wheel of these package files, with more dist-info files (entry_points.txt for a
 * plugin a tool finds by its entry point, as MkDocs does).
 */
export function pythonWheelOfFiles(
  name: string,
  version: string,
  files: Record<string, string>,
  infoFiles: Record<string, string> = {},
): Buffer {
  return wheelOf(name, version, files, '', infoFiles);
}

/** A Python package index (PEP 503's simple API) of wheels, served on loopback for a test. */
export interface PythonIndex {
  /** The index URL: http://127.0.0.1:<port>/simple */
  url: string;
  /** The sha256 of each wheel by file name, as a lockfile records it. */
  hashes: Record<string, string>;
  close(): Promise<void>;
}

/** Serve `wheels` (file name → wheel) as a package index on loopback: pip and pipenv read it as PyPI. */
export async function servePythonIndex(wheels: Record<string, Buffer>): Promise<PythonIndex> {
  const byProject = new Map<string, string[]>();
  const hashes: Record<string, string> = {};
  for (const [file, data] of Object.entries(wheels)) {
    const project = file.split('-')[0]!.toLowerCase().replace(/[._]+/g, '-');
    byProject.set(project, [...(byProject.get(project) ?? []), file]);
    hashes[file] = createHash('sha256').update(data).digest('hex');
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const project = /^\/simple\/([^/]+)\/?$/.exec(url.pathname)?.[1]?.toLowerCase();
    const file = /^\/files\/([^/]+)$/.exec(url.pathname)?.[1];
    if (project && byProject.has(project)) {
      res.writeHead(200, { 'content-type': 'text/html' });
      const links = byProject
        .get(project)!
        .map((f) => `<a href="/files/${f}#sha256=${hashes[f]}">${f}</a>`)
        .join('\n');
      res.end(`<!doctype html><html><body>${links}</body></html>`);
    } else if (file && wheels[file]) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(wheels[file]);
    } else if (url.pathname === '/simple/' || url.pathname === '/simple') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end([...byProject.keys()].map((p) => `<a href="/simple/${p}/">${p}</a>`).join('\n'));
    } else {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/simple`,
    hashes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A Python app with no dependency but the `greeting` wheel a test serves: a WSGI server on PORT whose
 * page is `<h1>` + greeting.hello() + `</h1>`, so the page tells which greeting was installed.
 */
export const GREETING_WSGI_APP = `import os
from wsgiref.simple_server import make_server
from greeting import hello

def app(environ, start_response):
    start_response('200 OK', [('Content-Type', 'text/html; charset=utf-8')])
    return [('<h1>' + hello() + '</h1>').encode()]

if __name__ == '__main__':
    make_server('127.0.0.1', int(os.environ['PORT']), app).serve_forever()
`;
