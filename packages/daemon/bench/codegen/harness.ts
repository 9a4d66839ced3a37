/**
 * Running generated code as its user would: TypeScript transpiled and imported from a scratch
 * folder inside the package whose node_modules it needs (React from @forge/web, Express and zod
 * from the daemon), components rendered by React into a happy-dom document and queried by role with
 * Testing Library, Express routers served on a real port. Shared by the benchmark
 * (assistants-codegen.bench.ts) and its CI version (codegen catalogue test).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
export const daemonRoot = path.resolve(here, '../..');
export const webRoot = path.resolve(daemonRoot, '../web');
/** React, react-dom, happy-dom and Testing Library are @forge/web's: the daemon has none of its own. */
export const requireWeb = createRequire(path.join(webRoot, 'package.json'));

const scratch: string[] = [];

/** Import generated code (TypeScript or JavaScript, JSX included) as a module. */
export async function load(code: string, fileName: string): Promise<Record<string, unknown>> {
  const root = /\.(tsx|jsx)$/.test(fileName) || /from 'react'/.test(code) ? webRoot : daemonRoot;
  const dir = fs.mkdtempSync(path.join(root, '.codegen-check-'));
  scratch.push(dir);
  const js = ts.transpileModule(code, {
    fileName: fileName.replace(/\.js$/, '.ts').replace(/\.jsx$/, '.tsx'),
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      jsx: ts.JsxEmit.ReactJSX,
    },
  }).outputText;
  const file = path.join(dir, fileName.replace(/\.(tsx?|jsx?)$/, '.mjs'));
  fs.writeFileSync(file, js);
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

/** Remove the scratch folders. */
export function cleanUp(): void {
  for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

// ----------------------------------------------------------------------------------------------
// A DOM, React and Testing Library

/** The little of the DOM the checks touch (the daemon is compiled without the DOM's types). */
export interface El {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelectorAll(selectors: string): ArrayLike<El>;
  appendChild(child: El): El;
  remove(): void;
  [key: string]: unknown;
}

/** The happy-dom globals, typed for the checks. */
export const browser = () =>
  globalThis as unknown as {
    document: { createElement(tag: string): El; body: El; dispatchEvent(event: unknown): boolean };
    localStorage: { clear(): void; getItem(key: string): string | null };
    KeyboardEvent: new (type: string, init: { key: string }) => unknown;
  };

type AnyFn = (...args: never[]) => unknown;
interface ReactLike {
  createElement(type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]): unknown;
  act(fn: () => unknown): Promise<void>;
}
interface RootLike {
  render(element: unknown): void;
  unmount(): void;
}
export type Queries = Record<string, AnyFn> & {
  getByRole(role: string, options?: Record<string, unknown>): El;
  queryByRole(role: string, options?: Record<string, unknown>): El | null;
  getAllByRole(role: string, options?: Record<string, unknown>): El[];
  getByLabelText(text: string | RegExp): El;
  getByText(text: string | RegExp): El;
  queryByText(text: string | RegExp): El | null;
};

let dom: { React: ReactLike; createRoot(el: El): RootLike; testing: Record<string, unknown> } | null = null;

/** A happy-dom window as the globals React and Testing Library use (once per process). */
function setUpDom() {
  if (dom) return dom;
  const { Window } = requireWeb('happy-dom') as { Window: new (o: object) => Record<string, unknown> };
  const window = new Window({ url: 'http://localhost/' });
  const g = globalThis as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(window)) {
    if (key in g || key.startsWith('_')) continue;
    try {
      g[key] = window[key];
    } catch {
      // A getter that needs its window: skipped.
    }
  }
  g.window = window;
  g.document = window.document;
  g.IS_REACT_ACT_ENVIRONMENT = true;
  const React = requireWeb('react') as ReactLike;
  const { createRoot } = requireWeb('react-dom/client') as { createRoot(el: El): RootLike };
  const testing = requireWeb('@testing-library/dom') as Record<string, unknown>;
  dom = { React, createRoot, testing };
  return dom;
}

export interface Rendered {
  container: El;
  q: Queries;
  rerender(props: Record<string, unknown>): Promise<void>;
  /** Run something that changes state (an event, a wait) inside React's act. */
  act(fn: () => unknown): Promise<void>;
  /** Fire a DOM event (Testing Library's fireEvent) inside act. */
  fire(kind: 'click' | 'change' | 'submit' | 'keyDown' | 'input', el: El, init?: object): Promise<void>;
  /** Type into an input or textarea (sets its value and fires change). */
  type(el: El, value: string): Promise<void>;
  unmount(): Promise<void>;
}

/** Render a component into a fresh container. */
export async function render(component: unknown, props: Record<string, unknown> = {}): Promise<Rendered> {
  const { React, createRoot, testing } = setUpDom();
  const container = browser().document.createElement('div');
  browser().document.body.appendChild(container);
  const root = createRoot(container);
  await React.act(async () => root.render(React.createElement(component, props)));
  const q = (testing.within as (el: El) => Queries)(container);
  const fireEvent = testing.fireEvent as Record<string, (el: El, init?: object) => void>;
  const act = (fn: () => unknown) => React.act(async () => void (await fn()));
  return {
    container,
    q,
    rerender: (next) => React.act(async () => root.render(React.createElement(component, next))),
    act,
    fire: (kind, el, init) => act(() => fireEvent[kind]!(el, init)),
    type: (el, value) => act(() => fireEvent.change!(el, { target: { value } })),
    unmount: async () => {
      await React.act(async () => root.unmount());
      container.remove();
    },
  };
}

/** A hook rendered by a probe component: `read()` is its latest value. */
export async function renderHook<T>(
  hook: (...args: never[]) => T,
  args: unknown[],
): Promise<{
  read(): T;
  rerender(args: unknown[]): Promise<void>;
  act: Rendered['act'];
  unmount(): Promise<void>;
}> {
  let latest: T | undefined;
  const Probe = (props: { args: unknown[] }) => {
    latest = (hook as (...a: unknown[]) => T)(...props.args);
    return null;
  };
  const rendered = await render(Probe, { args });
  return {
    read: () => latest as T,
    rerender: (next) => rendered.rerender({ args: next }),
    act: rendered.act,
    unmount: rendered.unmount,
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ----------------------------------------------------------------------------------------------
// An Express router on a real port

/** Serve a generated router with Express (the daemon's) and call it with fetch. */
export async function serve(router: unknown): Promise<{
  call(method: string, url: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}> {
  const express = createRequire(path.join(daemonRoot, 'package.json'))('express') as (() => {
    use(...args: unknown[]): void;
  }) & { json(): unknown };
  const app = express();
  app.use('/api', express.json(), router);
  const server = http.createServer(app as unknown as http.RequestListener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    async call(method, url, body) {
      const res = await fetch(`http://127.0.0.1:${port}/api${url}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
