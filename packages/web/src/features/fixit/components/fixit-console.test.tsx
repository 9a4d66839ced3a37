import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildStream } from '@forge/testing/fixtures';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { logExportText } from '../log-export.ts';
import { FixItConsole } from './fixit-console.tsx';

const lines = () =>
  within(screen.getByRole('log', { name: 'Log lines' }))
    .queryAllByRole('listitem')
    .map((li) => li.lastElementChild?.textContent);
const filterButton = (name: string) =>
  within(screen.getByRole('group', { name: 'Filter by level' })).getByRole('button', {
    name: new RegExp(`^${name}`),
  });

function renderConsole() {
  stubDaemon(() => undefined);
  const view = renderPanel(<FixItConsole />);
  const site = buildStream('b1', 'site');
  view.socket.emit({ type: 'log', botName: 'TestBot', level: 'error', message: 'tests failed' });
  view.socket.emit(site.stderr('npm warn deprecated glob', 1, 1));
  view.socket.emit(site.stage('build-success', 2));
  view.socket.emit(site.output('vite building\n', 2, 3));
  return view;
}

afterEach(() => vi.restoreAllMocks());

describe('FixIt Console (docs/product.md#fixit-console)', () => {
  it('shows every line by default and filters by level', () => {
    renderConsole();
    expect(filterButton('All').getAttribute('aria-pressed')).toBe('true');
    expect(lines()).toEqual([
      'tests failed',
      'npm warn deprecated glob',
      'site: Build Complete',
      'vite building',
    ]);

    fireEvent.click(filterButton('Error'));
    expect(lines()).toEqual(['tests failed']);
    fireEvent.click(filterButton('Warn'));
    expect(lines()).toEqual(['npm warn deprecated glob']);
    fireEvent.click(filterButton('Success'));
    expect(lines()).toEqual(['site: Build Complete']);
    fireEvent.click(filterButton('Info'));
    expect(lines()).toEqual(['vite building']);
    expect(filterButton('Info').getAttribute('aria-pressed')).toBe('true');
    expect(filterButton('All').getAttribute('aria-pressed')).toBe('false');
  });

  it('shows plain-text socket frames as info lines', () => {
    const { socket } = renderConsole();
    // The shared socket client turns a non-JSON frame into this message (docs/product.md#websocket-messages).
    socket.emit({ type: 'log', botName: 'SYSTEM', level: 'info', message: 'raw text frame' });
    fireEvent.click(filterButton('Info'));
    expect(lines()).toContain('raw text frame');
  });

  it('clears the log', () => {
    renderConsole();
    fireEvent.click(screen.getByRole('button', { name: 'Clear logs' }));
    expect(lines()).toEqual([]);
    expect(screen.getByText(/No log lines yet/)).toBeDefined();
  });

  it('exports the lines shown as a .txt named with the date', async () => {
    renderConsole();
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:forge/logs';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-03-09T10:00:00Z'));
    fireEvent.click(filterButton('Error'));
    fireEvent.click(screen.getByRole('button', { name: 'Export logs' }));
    vi.useRealTimers();

    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('forge-logs-2025-03-09.txt');
    const text = await blobs[0]!.text();
    expect(text).toMatch(/^\S+ \[ERROR\] TestBot: tests failed\n$/);
  });

  it('formats one exported line per entry', () => {
    expect(
      logExportText([
        {
          id: '1',
          timestamp: '2025-01-01T00:00:00.000Z',
          level: 'warn',
          botName: 'BuildBot',
          message: 'slow',
        },
      ]),
    ).toBe('2025-01-01T00:00:00.000Z [WARN] BuildBot: slow\n');
    expect(logExportText([])).toBe('');
  });

  it('shows the Live badge lit only while the socket is open', () => {
    const { socket } = renderConsole();
    const badge = screen.getByText('Live');
    expect(badge.dataset.slot).toBe('badge');
    expect(badge.className).not.toContain('text-online');
    socket.setStatus('connected');
    expect(screen.getByText('Live').className).toContain('text-online');
  });
});
