import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BuildOutput } from '@forge/shared';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { buildStream } from '@forge/testing/fixtures';
import { AppProviders } from '@/app.tsx';
import { createQueryClient } from './query-client.ts';
import { createFakeSocket } from '@/test/fake-socket.ts';
import { BUILD_COMPLETE_EVENT, useClientState, useLogEntries } from './live-store.ts';

/** A panel that shows what the app's client model holds: console lines and the active build. */
function ModelProbe({ name }: { name: string }) {
  const { entries, clear } = useLogEntries();
  const active = useClientState((s) => (s.activeBuildId ? s.builds[s.activeBuildId] : undefined));
  return (
    <section aria-label={name}>
      <p>{entries.length} lines</p>
      <p>
        {active ? `${active.build.projectName} ${active.build.status} ${active.build.stage}` : 'no build'}
      </p>
      <p>{active ? `bots ${active.builderBots.join(',')}` : ''}</p>
      <button type="button" onClick={clear}>
        Clear
      </button>
    </section>
  );
}

const probe = (name: string) => within(screen.getByRole('region', { name }));

describe('the app client model (lib/live-store)', () => {
  it('folds every /ws message into the shared model once, however many panels read it', () => {
    stubDaemon(() => undefined);
    const site = buildStream('b1', 'site');
    const { socket } = renderPanel(
      <>
        <ModelProbe name="one" />
        <ModelProbe name="two" />
      </>,
    );
    for (const message of site.start(['BuildBot', 'UiBot'])) socket.emit(message);
    socket.emit(site.stage('build-start', 5));
    socket.emit(site.output('> vite build\nbuilt in 1s\n', 2, 6));

    for (const name of ['one', 'two']) {
      // The received line, the stage line, two bot lines, the next stage line and two output lines.
      expect(probe(name).getByText('7 lines')).toBeDefined();
      expect(probe(name).getByText('site running build-start')).toBeDefined();
      expect(probe(name).getByText('bots BuildBot,UiBot')).toBeDefined();
    }

    fireEvent.click(probe('one').getByRole('button', { name: 'Clear' }));
    expect(probe('one').getByText('0 lines')).toBeDefined();
    expect(probe('two').getByText('0 lines')).toBeDefined();
    // Clearing the console forgets lines, not builds.
    expect(probe('two').getByText('site running build-start')).toBeDefined();
  });

  it('raises the window build_complete event with the output, and the build reads succeeded', () => {
    stubDaemon(() => undefined);
    const site = buildStream('b1', 'site');
    const { socket } = renderPanel(<ModelProbe name="one" />);
    const seen: BuildOutput[] = [];
    const listener = (event: Event) => seen.push((event as CustomEvent<BuildOutput>).detail);
    window.addEventListener(BUILD_COMPLETE_EVENT, listener);
    try {
      for (const message of site.start()) socket.emit(message);
      socket.emit(site.stage('build-start', 1));
      socket.emit(site.stage('build-success', 2));
      socket.emit(site.complete(['index.html'], 3));
    } finally {
      window.removeEventListener(BUILD_COMPLETE_EVENT, listener);
    }
    expect(seen).toEqual([{ projectName: 'site', buildPath: '/forge/outputs/site', files: ['index.html'] }]);
    expect(probe('one').getByText('site succeeded integration-available')).toBeDefined();
  });

  it('gives each app its own model', () => {
    stubDaemon(() => undefined);
    const [a, b] = [createFakeSocket(), createFakeSocket()];
    render(
      <>
        <AppProviders queryClient={createQueryClient()} connect={a.connect}>
          <ModelProbe name="a" />
        </AppProviders>
        <AppProviders queryClient={createQueryClient()} connect={b.connect}>
          <ModelProbe name="b" />
        </AppProviders>
      </>,
    );
    for (const message of buildStream('b1', 'site').start()) a.emit(message);
    expect(probe('a').getByText('site running bot-assignment')).toBeDefined();
    expect(probe('b').getByText('no build')).toBeDefined();
    expect(probe('b').getByText('0 lines')).toBeDefined();
  });
});
