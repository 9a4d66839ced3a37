import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { homeLayout } from '../../home-layout.ts';
import { detectBlueprint } from '../../capabilities/detect/index.ts';
import { openStore, type Store } from '../../store/store.ts';
import { createBuildRepo } from '../../engine/build-repo.ts';
import { ensureStarterProject, STARTER_FILES, STARTER_OPEN_FILES } from './starter-project.ts';

let home: string;
let store: Store;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-starter-'));
  store = openStore(path.join(home, 'forge.db'));
});
afterEach(() => {
  store.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const deps = () => ({
  layout: homeLayout(home),
  repo: createBuildRepo(store),
  logger: pino({ level: 'silent' }),
});

describe('the starter project', () => {
  it('is created once, on a home without projects, and recorded as a project', () => {
    expect(ensureStarterProject(deps())).toBe(true);
    const dir = homeLayout(home).projectDir('Forge');
    for (const rel of STARTER_OPEN_FILES)
      expect(fs.readFileSync(path.join(dir, rel), 'utf8')).toBe(STARTER_FILES[rel]);
    expect(
      deps()
        .repo.projects()
        .map((p) => p.name),
    ).toEqual(['Forge']);
    fs.writeFileSync(path.join(dir, 'package.json'), '{"edited":true}');
    expect(ensureStarterProject(deps())).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe('{"edited":true}');
    expect(fs.readdirSync(homeLayout(home).tmpDir)).toEqual([]);
  });

  it('is not created when another project exists', () => {
    deps().repo.touchProject('mine', new Date());
    expect(ensureStarterProject(deps())).toBe(false);
    expect(fs.existsSync(homeLayout(home).projectDir('Forge'))).toBe(false);
  });

  it('plans as a Vite build with its output in dist/, so Start Build builds and previews it', async () => {
    ensureStarterProject(deps());
    const blueprint = await detectBlueprint(homeLayout(home).projectDir('Forge'));
    expect(blueprint).toMatchObject({
      kind: 'static-build',
      framework: 'vite',
      packageManager: 'npm',
      outputDir: 'dist',
      build: expect.arrayContaining(['build']),
    });
  });
});
