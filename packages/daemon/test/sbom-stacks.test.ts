import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { Build, UploadResult } from '@forge/shared';
import { pythonWheel } from '@forge/testing';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';
import { onPath } from '../src/capabilities/toolchains/stack-tool.ts';

// The SBOM of builds of other stacks, through a real daemon and the stacks' own tools, offline:
// Python's virtual environment from a wheel in the project, a Go module vendored in the project,
// a Composer package from a path repository in the project.

afterEach(cleanup);

interface Bom {
  components?: Array<{
    purl: string;
    licenses?: unknown[];
    hashes?: Array<{ alg: string; content: string }>;
  }>;
  dependencies?: Array<{ ref: string; dependsOn?: string[] }>;
  metadata: { component: { 'bom-ref': string }; properties?: Array<{ name: string; value: string }> };
}

async function sbomOfBuild(app: TestApp, name: string, files: Record<string, string | Buffer>): Promise<Bom> {
  const live = await watch(app);
  const result = (await (await upload(app, makeZip(`${name}.zip`, files))).json()) as UploadResult;
  const done: Build = await live.finished(result.buildId!, 170_000);
  if (done.status !== 'succeeded') throw new Error(`${name}: ${JSON.stringify(done.error)}`);
  const res = await fetch(`${app.url}/api/builds/${done.id}/sbom`);
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(text)).toBeNull();
  return JSON.parse(text) as Bom;
}

const rootDeps = (bom: Bom) =>
  bom.dependencies?.find((d) => d.ref === bom.metadata.component['bom-ref'])?.dependsOn ?? [];

const PY_APP = `import os
from wsgiref.simple_server import make_server
from greeting import hello

def app(environ, start_response):
    start_response('200 OK', [('Content-Type', 'text/html')])
    return [hello().encode()]

if __name__ == '__main__':
    make_server('127.0.0.1', int(os.environ['PORT']), app).serve_forever()
`;

describe.skipIf(!onPath('python3', process.env.PATH ?? ''))('the SBOM of a Python build', () => {
  it('lists the distributions pip installed in its virtual environment', { timeout: 180_000 }, async () => {
    const app = await startTestApp();
    const bom = await sbomOfBuild(app, 'py-sbom', {
      'requirements.txt': '--no-index\n--find-links wheels\ngreeting==1.0\n',
      'wheels/greeting-1.0-py3-none-any.whl': pythonWheel(
        'greeting',
        '1.0',
        "def hello():\n    return 'hi'\n",
        'License: MIT\n',
      ),
      'app.py': PY_APP,
    });
    expect(bom.components).toEqual([
      expect.objectContaining({ purl: 'pkg:pypi/greeting@1.0', licenses: [{ license: { id: 'MIT' } }] }),
    ]);
    expect(rootDeps(bom)).toEqual(['pkg:pypi/greeting@1.0']);
    expect(bom.metadata.properties).toContainEqual({ name: 'forge:lockfile', value: 'requirements.txt' });
  });
});

const GO_H1 = '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';

describe.skipIf(!onPath('go', process.env.PATH ?? ''))('the SBOM of a Go build', () => {
  it('lists go.mod’s modules with go.sum’s digest', { timeout: 180_000 }, async () => {
    const app = await startTestApp();
    const bom = await sbomOfBuild(app, 'go-sbom', {
      'go.mod': 'module example.com/server\n\ngo 1.19\n\nrequire example.com/greet v1.2.0\n',
      'go.sum': `example.com/greet v1.2.0 h1:${GO_H1}\n`,
      'vendor/modules.txt': '# example.com/greet v1.2.0\n## explicit\nexample.com/greet\n',
      'vendor/example.com/greet/greet.go': 'package greet\n\nfunc Hello() string { return "hi" }\n',
      'main.go': `package main

import (
	"fmt"
	"net/http"
	"os"

	"example.com/greet"
)

func main() {
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, greet.Hello()) })
	http.ListenAndServe("127.0.0.1:"+os.Getenv("PORT"), nil)
}
`,
    });
    expect(bom.components).toEqual([
      expect.objectContaining({
        purl: 'pkg:golang/example.com/greet@v1.2.0',
        hashes: [{ alg: 'SHA-256', content: Buffer.from(GO_H1, 'base64').toString('hex') }],
      }),
    ]);
    expect(rootDeps(bom)).toEqual(['pkg:golang/example.com/greet@v1.2.0']);
  });
});

/** composer.json and the composer.lock `composer update` wrote for it (a path repository: offline). */
const COMPOSER_JSON = JSON.stringify({
  name: 'forge/php-app',
  repositories: [{ type: 'path', url: 'packages/greet', options: { symlink: false } }],
  require: { 'forge/greet': '1.2.0' },
});
const COMPOSER_LOCK = JSON.stringify({
  'content-hash': 'eaad3a534e993265947e32328a44320f',
  packages: [
    {
      name: 'forge/greet',
      version: '1.2.0',
      dist: { type: 'path', url: 'packages/greet', reference: '7541cb3a0952a33f298a118a45037b387586f428' },
      type: 'library',
      autoload: { 'psr-4': { 'Greet\\': 'src/' } },
      license: ['MIT'],
      'transport-options': { symlink: false, relative: true },
    },
  ],
  'packages-dev': [],
  aliases: [],
  'minimum-stability': 'stable',
  'stability-flags': [],
  'prefer-stable': false,
  'prefer-lowest': false,
  platform: [],
  'platform-dev': [],
  'plugin-api-version': '2.3.0',
});

describe.skipIf(!onPath('php', process.env.PATH ?? '') || !onPath('composer', process.env.PATH ?? ''))(
  'the SBOM of a PHP build',
  () => {
    it('lists composer.lock’s packages with their licences', { timeout: 180_000 }, async () => {
      const app = await startTestApp();
      const bom = await sbomOfBuild(app, 'php-sbom', {
        'composer.json': COMPOSER_JSON,
        'composer.lock': COMPOSER_LOCK,
        'packages/greet/composer.json': JSON.stringify({
          name: 'forge/greet',
          version: '1.2.0',
          license: 'MIT',
          autoload: { 'psr-4': { 'Greet\\': 'src/' } },
        }),
        'packages/greet/src/hello.php': '<?php namespace Greet; function hello() { return "hi"; }\n',
        'index.php': '<?php require "vendor/autoload.php"; echo "<h1>ok</h1>";\n',
      });
      expect(bom.components).toEqual([
        expect.objectContaining({
          purl: 'pkg:composer/forge/greet@1.2.0',
          licenses: [{ license: { id: 'MIT' } }],
        }),
      ]);
      expect(rootDeps(bom)).toEqual(['pkg:composer/forge/greet@1.2.0']);
    });
  },
);
