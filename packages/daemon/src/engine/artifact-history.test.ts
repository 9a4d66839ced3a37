import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newBuild, type Build } from '@forge/shared';
import { homeLayout } from '../home-layout.ts';
import { keptBuilds, previousGreenOf, pruneHistory, whileRollingBackFrom } from './artifact-history.ts';
import { ARTIFACT_FILES } from '../capabilities/artifacts/record.ts';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

type Verdict = 'passed' | 'failed' | 'none';

/** A home with `count` recorded builds of project "p" (b1 oldest), with their tests' verdicts. */
function setup(verdicts: Verdict[], opts: { current?: string; running?: string[] } = {}) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-history-'));
  homes.push(home);
  const layout = homeLayout(home);
  const builds = new Map<string, Build>();
  verdicts.forEach((status, i) => {
    const id = `b${i + 1}-aaaaaa`;
    const build: Build = {
      ...newBuild(id, 'p', new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString()),
      status: 'succeeded',
      verdict: {
        status,
        command: null,
        counts: null,
        policy: 'optional',
        policySource: 'default',
        summary: status,
      },
    };
    builds.set(id, build);
    const dir = path.join(layout.artifactsDir('p'), id);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, ARTIFACT_FILES.record), JSON.stringify({ buildId: id, name: 'p.zip' }));
  });
  const repo = {
    get: (id: string) => builds.get(id) ?? null,
    project: () =>
      opts.current
        ? {
            name: 'p',
            createdAt: '',
            updatedAt: '',
            previewPid: null,
            app: null,
            output: { hash: 'h', buildId: opts.current },
          }
        : null,
    active: () =>
      (opts.running ?? []).map((id) => ({
        build: { ...builds.get(id)!, status: 'running' as const },
        pids: [],
      })),
  };
  const ids = () => keptBuilds(repo, layout, 'p').map((k) => k.record.buildId);
  return { layout, repo, ids };
}

describe('pruneHistory', () => {
  it('keeps the newest N, newest first', () => {
    const { layout, repo, ids } = setup(['passed', 'passed', 'passed', 'passed']);
    expect(ids()).toEqual(['b4-aaaaaa', 'b3-aaaaaa', 'b2-aaaaaa', 'b1-aaaaaa']);
    expect(pruneHistory({ repo, layout, name: 'p', keep: 2 }).sort()).toEqual(['b1-aaaaaa', 'b2-aaaaaa']);
    expect(ids()).toEqual(['b4-aaaaaa', 'b3-aaaaaa']);
    // Renamed out of the artifacts folder at once; the delete itself runs in the background.
    expect(fs.readdirSync(layout.artifactsDir('p')).sort()).toEqual(['b3-aaaaaa', 'b4-aaaaaa']);
  });

  it('never removes the current build, the last green one, a running one or a rollback source', async () => {
    // b4 and b3 failed their tests: the last green is b2. b1 is current.
    const { layout, repo, ids } = setup(['passed', 'passed', 'failed', 'failed'], { current: 'b1-aaaaaa' });
    expect(pruneHistory({ repo, layout, name: 'p', keep: 1 })).toEqual(['b3-aaaaaa']);
    expect(ids()).toEqual(['b4-aaaaaa', 'b2-aaaaaa', 'b1-aaaaaa']);

    const more = setup(['passed', 'passed', 'passed'], { running: ['b2-aaaaaa'] });
    const source = path.join(more.layout.artifactsDir('p'), 'b1-aaaaaa');
    await whileRollingBackFrom(source, async () => {
      expect(pruneHistory({ repo: more.repo, layout: more.layout, name: 'p', keep: 1 })).toEqual([]);
    });
    expect(pruneHistory({ repo: more.repo, layout: more.layout, name: 'p', keep: 1 })).toEqual(['b1-aaaaaa']);
  });

  it('leaves a record still being written alone', () => {
    const { layout, repo, ids } = setup(['passed']);
    fs.mkdirSync(path.join(layout.artifactsDir('p'), 'b2-bbbbbb.partial-1'));
    expect(ids()).toEqual(['b1-aaaaaa']);
    expect(pruneHistory({ repo, layout, name: 'p', keep: 1 })).toEqual([]);
    expect(fs.existsSync(path.join(layout.artifactsDir('p'), 'b2-bbbbbb.partial-1'))).toBe(true);
  });
});

describe('previousGreenOf', () => {
  it('is the newest green build older than the current one', () => {
    const { layout, repo } = setup(['passed', 'failed', 'passed', 'passed'], { current: 'b3-aaaaaa' });
    const kept = keptBuilds(repo, layout, 'p');
    expect(previousGreenOf(kept, 'b3-aaaaaa')?.record.buildId).toBe('b1-aaaaaa');
    expect(previousGreenOf(kept, 'b1-aaaaaa')).toBeNull();
    expect(previousGreenOf(kept, null)?.record.buildId).toBe('b4-aaaaaa');
  });
});
