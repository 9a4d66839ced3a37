import { afterEach, describe, expect, it } from 'vitest';
import type { UploadResult } from '@forge/shared';
import { cleanup, startTestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';
import { VITE_REACT_APP } from './fixtures/vite-react.ts';

afterEach(cleanup);

// Installs vite, react and the React plugin from the npm registry: the one test that needs the network.
describe('a real Vite + React project', () => {
  it('goes from ZIP to a working preview, then re-uploads as a cache hit', { timeout: 300_000 }, async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const zip = makeZip('vite-react-app.zip', VITE_REACT_APP);
    const result = (await (await upload(app, zip)).json()) as UploadResult;
    expect(result).toMatchObject({ projectName: 'vite-react-app', buildResult: { hasPackageJson: true } });
    const build = await live.finished(result.buildId!, 280_000);
    if (build.status !== 'succeeded') {
      const logs = await (await fetch(`${app.url}/api/builds/${build.id}/logs?limit=10000`)).json();
      throw new Error(
        `build ${build.status}: ${JSON.stringify(build.error)}\n${JSON.stringify(logs).slice(-4000)}`,
      );
    }
    expect(build.blueprint).toMatchObject({
      framework: 'vite',
      kind: 'static-build',
      packageManager: 'npm',
      outputDir: 'dist',
    });
    expect(build.uiCheck).toMatchObject({ ok: true, missingAssets: [] });

    const html = await (await fetch(build.previewUrl!)).text();
    expect(html).toContain('Vite + React on Forge');
    const scripts = [...html.matchAll(/src="([^"]+\.js)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const asset = await fetch(new URL(src, build.previewUrl!));
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/javascript/);
      expect(await asset.text()).toContain('Hello from Vite + React');
    }

    const again = (await (await upload(app, zip)).json()) as UploadResult;
    const cached = await live.finished(again.buildId!);
    // How fast a cache hit is, is measured by `pnpm bench`, not asserted here.
    expect(cached).toMatchObject({ status: 'succeeded', cacheHit: true });
    expect(cached.steps.map((s) => s.botName)).not.toContain('BuildBot');
  });
});
