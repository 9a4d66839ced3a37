import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, onCleanup, startTestApp } from './helpers.ts';
import { buildOf, logsOf } from './build-helpers.ts';

// A Deno server through a real daemon: Deno is not on this machine, so Forge fetches it from the npm
// registry (the deno package and its platform binary) into FORGE_HOME/toolchains, caches the server's
// npm: import from the same registry, runs its build task and previews its start task on PORT.

afterEach(cleanup);

/** Deno is fetched from the registry on a first build: more time than other stacks. */
const DENO_BUILD_MS = 240_000;

/** PATH without any deno: the machine as one that never had it. */
function hideDeno(): void {
  const before = process.env.PATH ?? '';
  process.env.PATH = before
    .split(path.delimiter)
    .filter((dir) => !fs.existsSync(path.join(dir, 'deno')))
    .join(path.delimiter);
  onCleanup(() => {
    process.env.PATH = before;
  });
}

const DENO_SERVER = {
  'deno.json': JSON.stringify(
    {
      tasks: {
        build: 'deno run --allow-read --allow-write build.ts',
        start: 'deno run --allow-net --allow-env --allow-read main.ts',
      },
      imports: { 'escape-html': 'npm:escape-html@1.0.3' },
    },
    null,
    2,
  ),
  '.dvmrc': '2\n',
  'build.ts': `await Deno.writeTextFile("greeting.txt", "Deno & npm, built");\n`,
  'main.ts': `import escapeHtml from "escape-html";

const greeting = await Deno.readTextFile("greeting.txt");
Deno.serve(
  { hostname: "127.0.0.1", port: Number(Deno.env.get("PORT")) },
  () => new Response(\`<h1>\${escapeHtml(greeting)}</h1>\`, { headers: { "content-type": "text/html" } }),
);
`,
};

describe('a Deno server', () => {
  it(
    'is built with a Deno fetched from the npm registry and its start task previewed on PORT',
    { timeout: 300_000 },
    async () => {
      hideDeno();
      const app = await startTestApp();
      const done = await buildOf(app, 'deno-server', DENO_SERVER, DENO_BUILD_MS);
      if (done.status !== 'succeeded')
        throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
      const bp = done.blueprint!;
      expect(bp).toMatchObject({
        stack: 'deno',
        kind: 'server',
        framework: 'deno',
        install: ['deno', 'cache', 'main.ts'],
        build: ['deno', 'task', 'build'],
        start: ['deno', 'task', 'start'],
      });
      expect(bp.decisions).toContainEqual(
        expect.objectContaining({ field: 'stack', value: 'deno', file: 'deno.json' }),
      );
      expect(bp.decisions).toContainEqual(
        expect.objectContaining({ field: 'runtime', value: 'deno 2', file: '.dvmrc' }),
      );
      expect(bp.runtime).toMatchObject({
        tool: 'deno',
        wanted: '2',
        versionFile: '.dvmrc',
        source: 'fetched',
      });
      expect(bp.runtime!.found).toMatch(/^2\.\d+\.\d+$/);
      // Forge's own copy, shared by projects: the deno package's folder in toolchains/.
      const toolchains = fs.readdirSync(path.join(app.home, 'toolchains'));
      expect(toolchains).toContain(`deno@${bp.runtime!.found}`);
      // The npm: import came from the registry into Forge's Deno cache, not the user's.
      expect(fs.existsSync(path.join(app.home, 'caches', 'deno', 'npm'))).toBe(true);
      const page = await (await fetch(done.previewUrl!)).text();
      expect(page).toBe('<h1>Deno &amp; npm, built</h1>');

      // The next build of a Deno project takes it from toolchains/ without the network.
      const again = await buildOf(app, 'deno-again', DENO_SERVER, DENO_BUILD_MS);
      expect(again.status).toBe('succeeded');
      expect(again.blueprint!.runtime).toMatchObject({ found: bp.runtime!.found, source: 'toolchains' });
    },
  );

  it(
    "asking for a Deno the registry does not carry ends in TOOLCHAIN_UNAVAILABLE with npm's reason",
    { timeout: 120_000 },
    async () => {
      hideDeno();
      const app = await startTestApp();
      const done = await buildOf(app, 'deno-none', { ...DENO_SERVER, '.dvmrc': '2.0.99\n' }, DENO_BUILD_MS);
      expect(done.status).toBe('failed');
      expect(done.blueprint!.runtime).toMatchObject({ wanted: '2.0.99', versionFile: '.dvmrc' });
      expect(done.error!.code).toBe('TOOLCHAIN_UNAVAILABLE');
      expect(done.error!.message).toMatch(/^Could not fetch deno@2\.0\.99 from \S+: .*No matching version/);
      expect(done.error!.hint).toMatch(/npm registry/);
      expect(done.diagnosis).toMatchObject({ code: 'TOOLCHAIN_MISSING' });
    },
  );
});
