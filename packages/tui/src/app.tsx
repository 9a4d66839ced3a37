import { useCallback, useEffect, useRef, useState } from 'react';
import { Box, useApp, useInput, type Key } from 'ink';
import {
  formatBytes,
  isFinished,
  LOG_FILTERS,
  matchesLogFilter,
  UI_TEXT,
  type LogFilter,
  type UploadResult,
} from '@forge/shared';
import type { TuiClient } from './client.ts';
import { BuildPane, buildListRows } from './components/build-pane.tsx';
import { FleetPane, fleetListRows, fleetRows } from './components/fleet-pane.tsx';
import { Header } from './components/header.tsx';
import { HintBar, type KeyHint } from './components/hint-bar.tsx';
import { LogsPane } from './components/logs-pane.tsx';
import { OfflineBanner } from './components/offline-banner.tsx';
import type { PaneId } from './components/pane.tsx';
import { StatusLine, type Notice, type NoticeTone } from './components/status-line.tsx';
import { UploadPrompt, type PromptState } from './components/upload-prompt.tsx';
import { NOTICE_MS, REQUEST_TIMEOUT_MS, UPLOAD_TIMEOUT_MS } from './constants.ts';
import { BuildProvider, useBuild } from './hooks/use-build.tsx';
import { useFleet } from './hooks/use-fleet.ts';
import { ForgeProvider, useForge } from './hooks/use-forge.tsx';
import { useLogs } from './hooks/use-logs.ts';
import { useRefState } from './hooks/use-ref-state.ts';
import { useTerminalSize } from './hooks/use-terminal-size.ts';
import { completePath } from './lib/complete-path.ts';
import { computeLayout, paneInnerColumns, paneInnerRows } from './lib/layout.ts';
import { openInBrowser, workspaceUrl, type OpenUrl } from './lib/open-url.ts';
import { describeError, withTimeout } from './lib/request.ts';
import { checkZipFile, zipForm } from './lib/zip-file.ts';

export const KEY_HINTS: readonly KeyHint[] = [
  { key: 'tab', label: 'focus', optional: true },
  { key: '↑↓', label: 'scroll', optional: true },
  { key: 'u', label: 'upload' },
  { key: 'b', label: 'build' },
  { key: 'c', label: 'cancel' },
  { key: 'o', label: 'open web' },
  { key: 'p', label: 'preview' },
  { key: 'f', label: 'filter' },
  { key: 'q', label: 'quit' },
];

const PROMPT_HINTS: readonly KeyHint[] = [
  { key: 'tab', label: 'complete' },
  { key: 'enter', label: 'upload' },
  { key: 'esc', label: 'cancel' },
  { key: 'ctrl+u', label: 'clear', optional: true },
];

const PANES: readonly PaneId[] = ['fleet', 'build', 'logs'];

export interface AppProps {
  client: TuiClient;
  /** Access token: `o` adds it to the workspace URL so the browser is let in. */
  token?: string;
  /** The folder the upload prompt reads relative paths from (default: the process's). */
  cwd?: string;
  /** Opens a URL in the browser without writing to the terminal. */
  openUrl?: OpenUrl;
  /** Upper bound of each daemon call (the upload has its own, longer one). */
  timeoutMs?: number;
  uploadTimeoutMs?: number;
}

/** The dashboard. The client comes in as a prop so tests can hand it a fake. */
export function App({
  client,
  token,
  cwd = process.cwd(),
  openUrl = openInBrowser,
  timeoutMs = REQUEST_TIMEOUT_MS,
  uploadTimeoutMs = UPLOAD_TIMEOUT_MS,
}: AppProps) {
  return (
    <ForgeProvider client={client} timeoutMs={timeoutMs}>
      <BuildProvider>
        <Dashboard token={token} cwd={cwd} openUrl={openUrl} uploadTimeoutMs={uploadTimeoutMs} />
      </BuildProvider>
    </ForgeProvider>
  );
}

/** What a plain character means as a key (Ink only names keys it receives on their own). */
const CHAR_KEYS: Record<string, Partial<Key>> = {
  '\t': { tab: true },
  '\r': { return: true },
  '\n': { return: true },
  '\u007F': { backspace: true },
  '\b': { backspace: true },
};

/**
 * Ink hands over a run of plain characters as one input (keys typed faster than it reads them, a
 * paste, tmux's send-keys): "hello\t" must type "hello" and then complete, "ub" open the prompt and
 * type "b". Each character becomes its own key; a named key (arrows, tab alone) stays as it came.
 */
export function splitKeys(input: string, key: Key): [string, Key][] {
  if ([...input].length <= 1) return [[input, key]];
  return [...input].map((char) => {
    const named = CHAR_KEYS[char];
    if (named) return ['', { ...key, ...named }];
    const code = char.codePointAt(0) ?? 0;
    // Ctrl+letter arrives as its control code (Ctrl+U = 0x15).
    if (code >= 1 && code <= 26) return [String.fromCharCode(code + 96), { ...key, ctrl: true }];
    return [char, key];
  });
}

/** What the status line says once an upload was answered. */
export function uploadedText(fileName: string, result: UploadResult): string {
  const build = result.buildId
    ? `, build ${result.buildId}${result.status === 'queued' ? ' (queued: it starts when a build slot is free)' : ''}`
    : '';
  return `Uploaded ${fileName}: project ${result.projectName}${build}${result.error ? ` — ${result.error}` : ''}`;
}

/** Printable characters only: a paste may carry a newline or escape codes. */
// eslint-disable-next-line no-control-regex
const printable = (input: string) => input.replace(/[\u0000-\u001F\u007F-\u009F]/g, '');

function Dashboard({
  token,
  cwd,
  openUrl,
  uploadTimeoutMs,
}: {
  token: string | undefined;
  cwd: string;
  openUrl: OpenUrl;
  uploadTimeoutMs: number;
}) {
  const { exit } = useApp();
  const { client, baseUrl, offline, timeoutMs } = useForge();
  const { project, build, buildId, output, follow, show, update } = useBuild();
  const logs = useLogs();
  const fleet = useFleet();
  const { columns, rows } = useTerminalSize();

  const [focus, setFocus, focusRef] = useRefState<PaneId>('build');
  const [scroll, setScroll] = useState<Record<PaneId, number>>({ fleet: 0, build: 0, logs: 0 });
  const [filter, setFilter] = useState<LogFilter>('all');
  const [prompt, setPrompt, promptRef] = useRefState<PromptState | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const noticeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const busy = useRef({ submitting: false, uploading: false });

  // Another build's output starts at its newest line.
  useEffect(() => setScroll((prev) => (prev.build === 0 ? prev : { ...prev, build: 0 })), [buildId]);

  const layout = computeLayout(columns, rows, { banner: offline, prompt: prompt !== null });

  /** Show a notice; it clears itself after NOTICE_MS unless `sticky` (replaced by the next one). */
  const notify = useCallback((tone: NoticeTone, text: string, sticky = false) => {
    clearTimeout(noticeTimer.current);
    setNotice({ tone, text });
    if (!sticky) noticeTimer.current = setTimeout(() => setNotice(null), NOTICE_MS);
  }, []);
  useEffect(() => () => clearTimeout(noticeTimer.current), []);

  // How far each pane can scroll: the rows it has beyond its height.
  const maxScroll = (pane: PaneId): number => {
    if (pane === 'fleet') {
      const listRows = fleetListRows(layout.bodyRows, fleet);
      const { rows: fleetList } = fleetRows(
        fleet.bots ?? [],
        listRows,
        paneInnerColumns(layout.fleetWidth),
        fleet.workers,
      );
      return Math.max(0, fleetList.length - listRows);
    }
    // Scrolled back, a list gives its last row to the "↓ n more" line: one row fewer for lines.
    const beyond = (count: number, rows: number) => (count > rows ? count - (rows - 1) : 0);
    if (pane === 'build')
      return beyond(output.length, buildListRows(layout.buildRows, layout.mainWidth, build));
    return beyond(
      logs.filter((l) => matchesLogFilter(l.level, filter)).length,
      paneInnerRows(layout.logsRows),
    );
  };
  const pageOf = (pane: PaneId) =>
    Math.max(
      1,
      paneInnerRows(
        pane === 'fleet' ? layout.bodyRows : pane === 'build' ? layout.buildRows : layout.logsRows,
      ) - 2,
    );

  /** Scroll the focused pane `linesUp` lines towards its older (or upper) rows. */
  const scrollBy = (linesUp: number) => {
    const pane = focusRef.current;
    const max = maxScroll(pane);
    setScroll((prev) => {
      const next = Math.min(max, Math.max(0, prev[pane] + (pane === 'fleet' ? -linesUp : linesUp)));
      return next === prev[pane] ? prev : { ...prev, [pane]: next };
    });
  };
  const scrollTo = (end: 'top' | 'bottom') => {
    const pane = focusRef.current;
    const value = (end === 'top') === (pane === 'fleet') ? 0 : maxScroll(pane);
    setScroll((prev) => ({ ...prev, [pane]: value }));
  };

  const upload = async (value: string) => {
    if (busy.current.submitting) return;
    busy.current.submitting = true;
    try {
      const check = await checkZipFile(value, cwd);
      if (!check.ok) {
        setPrompt((p) => p && { ...p, candidates: [], error: check.error });
        return;
      }
      if (busy.current.uploading) {
        setPrompt((p) => p && { ...p, error: 'An upload is still running; wait for it to answer.' });
        return;
      }
      setPrompt(null);
      const { file } = check;
      busy.current.uploading = true;
      notify('info', `Uploading ${file.name} (${formatBytes(file.size)})…`, true);
      try {
        const result = await withTimeout(
          client.request('upload', { form: await zipForm(file) }),
          uploadTimeoutMs,
        );
        if (result.buildId) follow(result.buildId, result.projectName);
        notify(result.error ? 'warn' : 'success', uploadedText(file.name, result));
      } catch (err) {
        notify('error', `${UI_TEXT.uploadFailed}: ${describeError(err)}`);
      } finally {
        busy.current.uploading = false;
      }
    } finally {
      busy.current.submitting = false;
    }
  };

  const complete = (value: string) => {
    void completePath(value, cwd).then((result) => {
      setPrompt((p) => {
        // The user typed on while the folder was read: that input wins.
        if (!p || p.value !== value) return p;
        return {
          value: result.value,
          candidates: result.candidates,
          error: result.none ? `Nothing to complete: no folder or .zip file matches “${value}”.` : null,
        };
      });
    });
  };

  const startBuild = async () => {
    if (!project) {
      notify('warn', 'No project yet: press u to upload a ZIP.');
      return;
    }
    notify('info', `Starting a build of ${project}…`, true);
    try {
      const record = await withTimeout(
        client.request('startBuild', { body: { projectName: project } }),
        timeoutMs,
      );
      show(record);
      notify('success', `Build ${record.id} of ${project} started.`);
    } catch (err) {
      notify('error', `Could not start a build of ${project}: ${describeError(err)}`);
    }
  };

  const cancelBuild = async () => {
    if (!build || isFinished(build.status)) {
      notify('warn', 'No build is running.');
      return;
    }
    notify('info', `Cancelling build ${build.id}…`, true);
    try {
      const record = await withTimeout(
        client.request('cancelBuild', { params: { id: build.id } }),
        timeoutMs,
      );
      update(record);
      notify('success', `Build ${record.id} cancelled.`);
    } catch (err) {
      notify('error', `Could not cancel build ${build.id}: ${describeError(err)}`);
    }
  };

  const open = async (url: string, what: string) => {
    try {
      await openUrl(url);
      notify('success', `Opened ${what} in your browser: ${url.split('?')[0]}`);
    } catch (err) {
      notify(
        'error',
        `Could not open a browser (${describeError(err)}); open ${url.split('?')[0]} yourself.`,
      );
    }
  };

  const openPreview = async () => {
    let url = build?.previewUrl ?? null;
    if (!url && project) {
      try {
        url = (await withTimeout(client.request('previewUrl', { query: { project } }), timeoutMs)).url;
      } catch (err) {
        notify('error', `Could not ask for the preview: ${describeError(err)}`);
        return;
      }
    }
    if (!url) {
      notify('warn', 'No preview yet: it is served once the build reaches Integration Available.');
      return;
    }
    await open(url, 'the preview');
  };

  const onPromptKey = (input: string, key: Key) => {
    const prompt = promptRef.current;
    if (!prompt) return;
    if (key.escape) {
      setPrompt(null);
      return;
    }
    if (key.return) {
      void upload(prompt.value);
      return;
    }
    if (key.tab) {
      complete(prompt.value);
      return;
    }
    if (key.backspace || key.delete) {
      setPrompt({ value: prompt.value.slice(0, -1), candidates: [], error: null });
      return;
    }
    if (key.ctrl && input === 'u') {
      setPrompt({ value: '', candidates: [], error: null });
      return;
    }
    if (key.ctrl || key.meta) return;
    const text = printable(input);
    if (text) setPrompt({ value: prompt.value + text, candidates: [], error: null });
  };

  // The key handler reads this render's state through a ref: Ink re-subscribes a changed handler
  // only once the render's effects have run, and a key pressed before that must not act on a
  // stale frame (scroll limits, the followed build, the prompt's text).
  const onKey = useRef<(input: string, key: Key) => void>(() => undefined);
  onKey.current = (input, key) => {
    if (promptRef.current) {
      onPromptKey(input, key);
      return;
    }
    if (key.tab) {
      const step = key.shift ? PANES.length - 1 : 1;
      setFocus((current) => PANES[(PANES.indexOf(current) + step) % PANES.length]!);
      return;
    }
    if (key.upArrow) return scrollBy(1);
    if (key.downArrow) return scrollBy(-1);
    if (key.pageUp) return scrollBy(pageOf(focusRef.current));
    if (key.pageDown) return scrollBy(-pageOf(focusRef.current));
    if (key.home) return scrollTo('top');
    if (key.end) return scrollTo('bottom');
    if (key.ctrl || key.meta) return;
    switch (input) {
      case 'q':
        exit();
        return;
      case 'u':
        setPrompt({ value: '', candidates: [], error: null });
        return;
      case 'b':
        void startBuild();
        return;
      case 'c':
        void cancelBuild();
        return;
      case 'o':
        void open(workspaceUrl(baseUrl, token), 'the workspace');
        return;
      case 'p':
        void openPreview();
        return;
      case 'f':
        setFilter((current) => LOG_FILTERS[(LOG_FILTERS.indexOf(current) + 1) % LOG_FILTERS.length]!);
        setScroll((prev) => ({ ...prev, logs: 0 }));
        return;
      default:
        return;
    }
  };
  useInput(
    useCallback((input: string, key: Key) => {
      for (const [one, flags] of splitKeys(input, key)) onKey.current(one, flags);
    }, []),
  );

  return (
    <Box flexDirection="column" width={columns} height={rows} overflow="hidden">
      <Header width={columns} />
      {offline && <OfflineBanner baseUrl={baseUrl} width={columns} />}
      <Box flexDirection="row" height={layout.bodyRows} flexShrink={0}>
        <FleetPane
          fleet={fleet}
          width={layout.fleetWidth}
          height={layout.bodyRows}
          focused={focus === 'fleet'}
          scroll={scroll.fleet}
        />
        <Box flexDirection="column" width={layout.mainWidth} flexShrink={0}>
          <BuildPane
            width={layout.mainWidth}
            height={layout.buildRows}
            focused={focus === 'build'}
            scroll={scroll.build}
          />
          <LogsPane
            width={layout.mainWidth}
            height={layout.logsRows}
            focused={focus === 'logs'}
            scroll={scroll.logs}
            filter={filter}
          />
        </Box>
      </Box>
      {prompt ? (
        <UploadPrompt prompt={prompt} cwd={cwd} width={columns} />
      ) : (
        <StatusLine notice={notice} width={columns} />
      )}
      <HintBar hints={prompt ? PROMPT_HINTS : KEY_HINTS} width={columns} />
    </Box>
  );
}
