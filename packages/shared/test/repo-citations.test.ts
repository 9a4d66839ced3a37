import { execFileSync } from 'node:child_process';
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
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The repository must be readable on its own: a comment or a doc may point to docs/… (and to an
 * anchor that exists there), never to a document the repository does not hold or to an issue number.
 * The patterns are spelled with escapes so this file does not match itself.
 */
const FORBIDDEN: { name: string; re: RegExp }[] = [
  { name: 'an outside spec section', re: /\bspec\s*\u00a7/i },
  { name: 'an outside ARCHITECTURE section', re: /\bARCHITECTURE(\.md)?\s*\u00a7/i },
  // A bare section sign points at some outside document; an RFC's sections are public and stable.
  { name: 'a bare section sign', re: /(?<!\bRFC \d+ )\u00a7\s*\d/ },
  { name: 'an issue number', re: /\bissues?\s+(#\s*)?\d+/i },
  // "the example", "the issue left open": an issue the reader cannot open either.
  { name: 'an issue', re: /\b(the|this) issue(['\u2019]s\b|:| left\b| asked\b| says\b)/i },
];

/** Text files a reader opens: sources, tests, scripts (the CI entry point too), docs, configs. */
const SCANNED = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|json|ya?ml|html|css|sh)$|^\.ci\/[^/.]+$/;
// This file is skipped too: its planted examples are citations on purpose.
const SKIPPED = /(^|\/)(pnpm-lock\.yaml|node_modules\/|dist\/|repo-citations\.test\.ts$)/;

/** A cited doc anchor: `docs/product.md#dashboard` (in code) or `](product.md#dashboard)` (in docs). */
const CODE_ANCHOR = /\bdocs\/([\w.-]+\.md)#([\w-]+)/g;
const DOC_LINK = /\]\((?:\.\/)?([\w.-]+\.md)?#([\w-]+)\)/g;

/** GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (outside code fences), with GitHub's -1, -2 for repeats. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

interface Finding {
  file: string;
  line: number;
  problem: string;
}

/** Every forbidden citation and every dangling docs link in `files` (paths relative to `root`). */
function findProblems(root: string, files: readonly string[]): Finding[] {
  const docsDir = path.join(root, 'docs');
  const anchorCache = new Map<string, Set<string> | null>();
  const anchors = (doc: string): Set<string> | null => {
    if (!anchorCache.has(doc)) {
      const file = path.join(docsDir, doc);
      anchorCache.set(doc, existsSync(file) ? anchorsOf(readFileSync(file, 'utf8')) : null);
    }
    return anchorCache.get(doc)!;
  };
  const problems: Finding[] = [];
  for (const file of files) {
    if (!SCANNED.test(file) || SKIPPED.test(file)) continue;
    const full = path.join(root, file);
    if (!existsSync(full)) continue;
    const inDocs = file.startsWith('docs/') && file.endsWith('.md');
    readFileSync(full, 'utf8')
      .split('\n')
      .forEach((text, i) => {
        const at = { file, line: i + 1 };
        const forbidden = FORBIDDEN.find(({ re }) => re.test(text));
        if (forbidden) problems.push({ ...at, problem: `cites ${forbidden.name}: ${text.trim()}` });
        const cited = [...text.matchAll(CODE_ANCHOR)].map(([, doc, anchor]) => [doc!, anchor!] as const);
        if (inDocs)
          for (const [, doc, anchor] of text.matchAll(DOC_LINK))
            cited.push([doc ?? path.basename(file), anchor!]);
        for (const [doc, anchor] of cited) {
          const known = anchors(doc);
          if (known === null)
            problems.push({ ...at, problem: `cites docs/${doc}#${anchor}, which does not exist` });
          else if (!known.has(anchor))
            problems.push({ ...at, problem: `cites docs/${doc}#${anchor}, which is no heading of that doc` });
        }
      });
  }
  return problems;
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Folders no reader opens as source: installs, builds, caches. */
const NOT_SOURCE = new Set([
  'node_modules',
  'dist',
  '.git',
  '.tsbuild',
  'coverage',
  'artifacts',
  'test-results',
]);

/** Every file under `dir`, relative to the repository root, without the folders above. */
function walk(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return NOT_SOURCE.has(entry.name) ? [] : walk(rel);
    return entry.isFile() ? [rel] : [];
  });
}

/**
 * Tracked files plus new ones not ignored, so a file not yet committed is checked too; a copy of the
 * sources without git (an unpacked archive) is walked instead.
 */
function repoFiles(): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: repoRoot,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out.split('\0').filter(Boolean);
  } catch {
    return walk('');
  }
}

const format = (problems: Finding[]): string =>
  problems.map((p) => `${p.file}:${p.line} ${p.problem}`).join('\n');

describe('the repository reads on its own', () => {
  it('cites only docs/… that exist, at headings that exist, and no issue numbers or outside sections', () => {
    const files = repoFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(format(findProblems(repoRoot, files))).toBe('');
  });

  describe('the check itself', () => {
    const planted = mkdtempSync(path.join(tmpdir(), 'forge-citations-'));
    afterAll(() => rmSync(planted, { recursive: true, force: true }));
    mkdirSync(path.join(planted, 'docs'));
    mkdirSync(path.join(planted, 'src'));
    writeFileSync(
      path.join(planted, 'docs/product.md'),
      '# Product\n\n## HTTP calls\n\n```\n# not a heading\n```\n',
    );
    const plant = (name: string, text: string): Finding[] => {
      writeFileSync(path.join(planted, name), text);
      return findProblems(planted, [name]);
    };

    it('accepts a citation of an existing heading and an RFC section', () => {
      expect(plant('src/ok.ts', '/** Polled (docs/product.md#http-calls); RFC 6265 \u00a75.3. */\n')).toEqual(
        [],
      );
      expect(plant('docs/ok.md', '# Ok\n\nSee [calls](product.md#http-calls) and [top](#ok).\n')).toEqual([]);
    });

    it.each([
      ['src/a.ts', `/** Upload limit (${'spec'} \u00a79). */`, 'an outside spec section'],
      ['src/b.ts', `// Shape of errors (ARCHITECTURE \u00a75).`, 'an outside ARCHITECTURE section'],
      ['src/c.tsx', `// The mobile breakpoint (\u00a79).`, 'a bare section sign'],
      ['src/d.mjs', `// Added for ${'Issue'} 13.`, 'an issue number'],
      ['docs/e.md', `## Real-world projects (${'issue'} #10)`, 'an issue number'],
      ['docs/e2.md', `## Decisions the ${'issue'} left open`, 'an issue'],
      ['src/e3.ts', `// A ZIP of 40 MB (the ${'issue'}'s case).`, 'an issue'],
      ['src/f.ts', '/** docs/product.md#nowhere */', 'no heading of that doc'],
      ['src/g.ts', '/** docs/product.md#not-a-heading */', 'no heading of that doc'],
      ['src/h.ts', '/** docs/missing.md#calls */', 'does not exist'],
      ['docs/i.md', 'See [x](product.md#nowhere).', 'no heading of that doc'],
    ])('fires on %s', (name, text, problem) => {
      const found = plant(name, `${text}\n`);
      expect(found).toHaveLength(1);
      expect(found[0]!.problem).toContain(problem);
      expect(found[0]!.line).toBe(1);
    });
  });
});
