import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeZip } from '@forge/testing';
import { createFleet } from '../src/engine/fleet/fleet.ts';
import { writeBundle } from '../src/features/extensions/bundled.ts';
import { createExtensionService, type ExtensionService } from '../src/features/extensions/service.ts';
import { openStore, STORE_FILE } from '../src/store/store.ts';
import { cleanup, memoryLogger, onCleanup, tempDir } from './helpers.ts';

afterEach(cleanup);

/**
 * The extensions an installed archive bundles (extensions/bundle.json beside packages/) are
 * registered at the daemon's start, each once. The whole archive round trip is in packaging.test.ts;
 * here, the cases it does not reach: a user's own extension of the same name, and a newer bundle.
 */

async function bundleDir(versions: Record<string, string>): Promise<string> {
  const dir = tempDir('forge-bundle-');
  for (const [name, version] of Object.entries(versions))
    writeExtension(path.join(dir, name, version), name, version);
  await writeBundle(
    dir,
    Object.entries(versions).map(([name, version]) => ({ name, version })),
  );
  return dir;
}

function writeExtension(
  dir: string,
  name: string,
  version: string,
  html = `<h1>${name} ${version}</h1>`,
): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'forge-extension.json'),
    JSON.stringify({ name, displayName: name, route: `/ext/${name}`, version, entry: 'index.html' }),
  );
  fs.writeFileSync(path.join(dir, 'index.html'), html);
}

/** A daemon start on `home`: its extension service, ready. */
async function start(home: string, bundledDir: string | null): Promise<ExtensionService> {
  const store = openStore(path.join(home, STORE_FILE));
  const service = createExtensionService({
    extensionsDir: path.join(home, 'extensions'),
    tmpDir: path.join(home, 'tmp'),
    store,
    fleet: createFleet({ broadcast: () => {}, maxConcurrent: () => 4 }),
    logger: memoryLogger().logger,
    bundledDir,
  });
  await service.ready();
  onCleanup(async () => {
    await service.close();
    store.close();
  });
  return service;
}

const listed = (s: ExtensionService) => s.list().map((e) => `${e.name}@${e.version}`);

describe('bundled extensions', () => {
  it('registers them once; a newer bundle upgrades only what the user left as bundled', async () => {
    const home = tempDir('forge-home-');
    const first = await start(home, await bundleDir({ hello: '1.0.0', notes: '1.0.0' }));
    expect(listed(first)).toEqual(['hello@1.0.0', 'notes@1.0.0']);
    expect(first.list().every((e) => e.url !== null)).toBe(true);
    await first.uninstall('notes');
    await first.close();

    // A newer archive: hello 1.1.0 upgrades the untouched 1.0.0; notes, removed, stays removed.
    const second = await start(home, await bundleDir({ hello: '1.1.0', notes: '1.1.0' }));
    expect(listed(second)).toEqual(['hello@1.1.0']);
    expect(second.list()[0]!.previousVersion).toBe('1.0.0');
  });

  it("leaves a user's own extension of the same name alone", async () => {
    const home = tempDir('forge-home-');
    // Installed by the user before the bundle was ever offered.
    const mine = tempDir('forge-mine-');
    writeExtension(mine, 'hello', '3.0.0', '<h1>mine</h1>');
    const before = await start(home, null);
    const zip = path.join(tempDir('forge-zip-'), 'hello.zip');
    fs.writeFileSync(
      zip,
      makeZip(Object.fromEntries(fs.readdirSync(mine).map((f) => [f, fs.readFileSync(path.join(mine, f))]))),
    );
    await before.install(zip, 'hello.zip');
    await before.close();

    const after = await start(home, await bundleDir({ hello: '1.0.0' }));
    expect(listed(after)).toEqual(['hello@3.0.0']);
    const page = await fetch(after.list()[0]!.url!);
    expect(await page.text()).toBe('<h1>mine</h1>');
  });
});
