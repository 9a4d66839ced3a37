import fs from 'node:fs/promises';
import path from 'node:path';

/** Files read for one search: a bounded scan, so a question never costs more than a moment. */
export const CODE_SEARCH_LIMITS = {
  files: 2_000,
  /** A file larger than this is generated or data, not code a person asks about. */
  fileBytes: 256 * 1024,
  totalBytes: 12 * 1024 * 1024,
  /** Lines quoted per file, and files per answer. */
  linesPerFile: 3,
  filesPerAnswer: 6,
} as const;

/** Text a developer writes: code, markup, styles, configs and docs (never images, archives, locks). */
const TEXT_FILE =
  /\.(?:[cm]?[jt]sx?|vue|svelte|astro|html?|css|s[ac]ss|less|json5?|ya?ml|toml|md|mdx|graphql|gql|prisma|sql|py|rb|go|rs|php|java|kt|swift|sh|env\.example)$|(?:^|\/)(?:Dockerfile|Makefile|\.env\.example)$/i;
const LOCKFILE =
  /(?:^|\/)(?:package-lock\.json|pnpm-lock\.yaml|yarn\.lock|bun\.lockb?|npm-shrinkwrap\.json)$/;
const CODE_FILE = /\.(?:[cm]?[jt]sx?|vue|svelte|astro)$/i;

/** One line that matched, as `file:line`. */
export interface CodeHit {
  file: string;
  line: number;
  text: string;
}

export interface CodeMatch {
  file: string;
  score: number;
  hits: CodeHit[];
}

export interface CodeSearchResult {
  matches: CodeMatch[];
  /** Files read, and whether a limit stopped the scan before every file was read. */
  scanned: number;
  capped: boolean;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How a term is found in code: as written, or inside an identifier ("login" in handleLogin,
 * LoginForm, login_form, /api/login), case-insensitively. A plural asks for its singular too.
 */
function termPattern(term: string): RegExp {
  const variants = [term];
  if (/[a-z]{3,}s$/.test(term) && !term.endsWith('ss')) variants.push(term.slice(0, -1));
  if (/[a-z]{3,}(?:ing|ed)$/.test(term)) variants.push(term.replace(/(?:ing|ed)$/, ''));
  return new RegExp(variants.map(escape).join('|'), 'i');
}

/**
 * How much a line weighs: one that declares the word (`function handleLogin`) or routes it
 * (`router.post('/login')`, `<Route path="/login">`) is where it is handled; a mention weighs less,
 * and an import least (it says where the thing is used, not where it is).
 */
const DECLARED_NAME = /\b(?:function\*?|class|interface|type|enum|const|let|var|def)\s+([\w$]+)/g;
const ROUTES =
  /\b(?:router|app|server|fastify|api)\.(?:get|post|put|patch|delete|all|use|route)\s*\(|<Route\b|\bpath\s*:|\bonSubmit\b|addEventListener\s*\(/;
const IMPORTS = /^\s*import\b|\brequire\s*\(|\bfrom\s+['"]/;

function lineWeight(line: string, patterns: RegExp[]): number {
  if (IMPORTS.test(line)) return 1;
  for (const m of line.matchAll(DECLARED_NAME)) {
    if (patterns.some((p) => p.test(m[1]!))) return 5;
  }
  if (ROUTES.test(line)) return 4;
  return 2;
}

/**
 * Search a project's files for the words of a question ("login", "date-fns") and name the files and
 * lines that hold them, best first: every word must appear in a file for it to count, a word in the
 * file's path or on a declaring line weighs more, and imports of a package are found as imports.
 */
export async function searchCode(
  root: string,
  files: readonly string[],
  terms: readonly string[],
  opts: { importsOf?: string | null; handled?: boolean } = {},
): Promise<CodeSearchResult> {
  const patterns = terms.map(termPattern);
  const importPattern = opts.importsOf
    ? new RegExp(
        `(?:from\\s+|import\\s*\\(\\s*|require\\s*\\(\\s*|import\\s+)['"]${escape(opts.importsOf)}(?:/[^'"]*)?['"]`,
      )
    : null;
  const matches: CodeMatch[] = [];
  let scanned = 0;
  let bytes = 0;
  let capped = false;
  for (const file of files) {
    if (!TEXT_FILE.test(file) || LOCKFILE.test(file)) continue;
    if (scanned >= CODE_SEARCH_LIMITS.files || bytes >= CODE_SEARCH_LIMITS.totalBytes) {
      capped = true;
      break;
    }
    let text: string;
    try {
      const full = path.join(root, file);
      const stat = await fs.stat(full);
      if (!stat.isFile() || stat.size > CODE_SEARCH_LIMITS.fileBytes) continue;
      text = await fs.readFile(full, 'utf8');
      bytes += stat.size;
      scanned++;
    } catch {
      continue;
    }
    if (text.includes('\u0000')) continue;
    const match = scoreFile(file, text, patterns, importPattern, opts.handled === true);
    if (match) matches.push(match);
  }
  matches.sort((a, b) => b.score - a.score || a.file.localeCompare(b.file));
  return { matches, scanned, capped };
}

function scoreFile(
  file: string,
  text: string,
  patterns: RegExp[],
  importPattern: RegExp | null,
  handled: boolean,
): CodeMatch | null {
  const lines = text.split(/\r?\n/);
  const hits: Array<CodeHit & { weight: number }> = [];
  if (importPattern) {
    lines.forEach((line, i) => {
      if (importPattern.test(line)) hits.push({ file, line: i + 1, text: line.trim(), weight: 5 });
    });
    if (hits.length === 0) return null;
    return {
      file,
      score: hits.length * 5 + (CODE_FILE.test(file) ? 1 : 0),
      hits: hits.slice(0, CODE_SEARCH_LIMITS.linesPerFile).map(({ weight: _w, ...h }) => h),
    };
  }
  if (patterns.length === 0) return null;
  const found = patterns.map(() => false);
  let score = 0;
  patterns.forEach((p, i) => {
    if (p.test(file)) {
      found[i] = true;
      score += 4;
    }
  });
  lines.forEach((line, i) => {
    if (line.length > 400) return;
    let lineScore = 0;
    patterns.forEach((p, t) => {
      if (p.test(line)) {
        found[t] = true;
        lineScore += 1;
      }
    });
    if (lineScore === 0) return;
    // "Where is X handled?": the line of a handler of X (handleLogin, onLogin) is the answer.
    const handler =
      handled && [...line.matchAll(DECLARED_NAME)].some((m) => /^(?:handle|on)[A-Z_]|handler$/i.test(m[1]!))
        ? 3
        : 0;
    const weight = lineScore * lineWeight(line, patterns) + handler;
    hits.push({ file, line: i + 1, text: line.trim(), weight });
  });
  if (!found.every(Boolean) || hits.length === 0) return null;
  // The best lines count in full, the rest a little: a file that declares the thing outranks one that
  // mentions it often.
  const weights = hits.map((h) => h.weight).sort((a, b) => b - a);
  score +=
    weights.slice(0, 2).reduce((sum, w) => sum + w, 0) +
    weights.slice(2).reduce((sum, w) => sum + w / 4, 0) +
    (CODE_FILE.test(file) ? 1 : 0);
  const best = [...hits]
    .sort((a, b) => b.weight - a.weight || a.line - b.line)
    .slice(0, CODE_SEARCH_LIMITS.linesPerFile)
    .sort((a, b) => a.line - b.line)
    .map(({ weight: _w, ...h }) => h);
  return { file, score, hits: best };
}
