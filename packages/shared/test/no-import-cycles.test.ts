import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * No package has an import cycle: a reader can start at any file and follow its imports down to the
 * leaves. The graph is each package's own source (src and its tests) with every relative import,
 * `import type` and `export … from` included: a type-only edge costs nothing at run time, but a cycle
 * made of type imports is still two files that cannot be read or moved one without the other (a
 * feature importing the type of the app that imports the feature is the case this check was written
 * for). Imports of other packages (`@forge/shared`) are not edges here: the lint rules of
 * eslint.config.js keep the packages themselves in one direction.
 */

/** Folders that are not source: installs, builds, caches, test projects written as data. */
const NOT_SOURCE = new Set(['node_modules', 'dist', '.tsbuild', 'coverage', 'fixtures', 'test-results']);
const SOURCE = /\.(ts|tsx|mts|cts)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return NOT_SOURCE.has(entry.name) ? [] : sourceFiles(full);
    return entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file a relative specifier names, as TypeScript with `allowImportingTsExtensions` finds it. */
function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(m|c)?jsx?$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.cts`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ];
  return candidates.find((c) => SOURCE.test(c) && existsSync(c)) ?? null;
}

/** file → the files it imports (static, type-only, re-exports and dynamic `import()` alike). */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.map((i) => resolve(file, i.fileName)).filter((t) => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * One cycle per strongly connected component of more than one file (or a file importing itself),
 * each as the path `a → b → … → a`. Tarjan's algorithm, iterative so a deep graph cannot overflow.
 */
export function findCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const selfImport = (graph.get(frame.node) ?? []).includes(frame.node);
      if (component.length > 1 || selfImport) components.push(component);
    }
  }
  return components.map((component) => cycleIn(graph, new Set(component)));
}

/** A shortest way round inside one component, from its first file (by name) back to it. */
function cycleIn(graph: Map<string, string[]>, members: Set<string>): string[] {
  const start = [...members].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const way = [start];
        for (let at: string | undefined = node; at !== start && at !== undefined; at = cameFrom.get(at))
          way.splice(1, 0, at);
        return [...way, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const PACKAGES = ['shared', 'daemon', 'cli', 'tui', 'web', 'testing'];

const describeCycles = (root: string, cycles: string[][]): string =>
  cycles.map((cycle) => cycle.map((f) => path.relative(root, f)).join(' → ')).join('\n');

describe('no import cycle in any package', () => {
  it.each(PACKAGES)('packages/%s', (name) => {
    const root = path.join(repoRoot, 'packages', name);
    const graph = importGraph(root);
    expect(graph.size).toBeGreaterThan(3);
    expect(describeCycles(root, findCycles(graph))).toBe('');
  });

  describe('the check itself', () => {
    const planted = mkdtempSync(path.join(tmpdir(), 'forge-cycles-'));
    afterAll(() => rmSync(planted, { recursive: true, force: true }));
    const plant = (files: Record<string, string>): string => {
      const dir = mkdtempSync(path.join(planted, 'case-'));
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        writeFileSync(path.join(dir, name), text);
      }
      return describeCycles(dir, findCycles(importGraph(dir)));
    };

    it('names the cycle of two files importing each other (.js specifiers resolve to .ts)', () => {
      expect(
        plant({
          'a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
          'b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
        }),
      ).toBe('a.ts → b.ts → a.ts');
    });

    it('counts type-only imports, re-exports and folders with an index', () => {
      expect(
        plant({
          'app.ts': "export { feature } from './features';\nexport interface App { name: string }\n",
          'features/index.ts':
            "import type { App } from '../app.ts';\nexport const feature = (a: App) => a;\n",
        }),
      ).toBe('app.ts → features/index.ts → app.ts');
    });

    it('finds a longer way round, and a file importing itself', () => {
      expect(
        plant({
          'a.ts': "import './b.ts';\n",
          'b.ts': "import './c.ts';\n",
          'c.ts': "import './a.ts';\n",
          'self.ts': "export * from './self.ts';\n",
        })
          .split('\n')
          .sort(),
      ).toEqual(['a.ts → b.ts → c.ts → a.ts', 'self.ts → self.ts']);
    });

    it('passes a graph that only goes down, and ignores packages and missing files', () => {
      expect(
        plant({
          'top.ts':
            "import { mid } from './mid.ts';\nimport { z } from 'zod';\nexport const top = [mid, z];\n",
          'mid.ts': "import { leaf } from './leaf.ts';\nimport './gone.ts';\nexport const mid = leaf;\n",
          'leaf.ts': 'export const leaf = 1;\n',
        }),
      ).toBe('');
    });
  });
});
