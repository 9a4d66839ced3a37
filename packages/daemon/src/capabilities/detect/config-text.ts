/**
 * Reading settings out of a JavaScript/TypeScript config file (vite.config.ts, next.config.mjs, …)
 * WITHOUT running it: the project is untrusted, so its config is text. A small tokenizer that knows
 * strings, template literals, comments and regex literals feeds a tolerant scanner that collects every
 * object literal with its plain-string and nested-object properties, and the folders named by
 * `path.resolve(__dirname, 'dist')`-style calls. Anything else computed (a variable, another call, a
 * ternary, a template with `${}`) is reported as `computed`, so the caller can say the value could not
 * be read instead of guessing. The same scanner reads JSON-with-comments (angular.json).
 */

type Token =
  | { t: 'punct'; v: string }
  | { t: 'str'; v: string; literal: boolean }
  | { t: 'word'; v: string }
  | { t: 'op'; v: string };

/**
 * A folder built with `path.resolve(…)` / `path.join(…)` from literal strings, optionally based on the
 * config file's own folder (`__dirname`, `import.meta.dirname`) or the working directory
 * (`process.cwd()`): the form webpack's `output.path` is written in. `from`: what the first segment is
 * relative to; `absolute` when a segment is an absolute path (outside the project).
 */
export interface PathExpression {
  kind: 'path';
  from: 'config-dir' | 'cwd' | 'relative' | 'absolute';
  segments: string[];
  /** The expression as written, for the rule text, e.g. `path.resolve(__dirname, 'dist')`. */
  text: string;
}

/** A property value as far as the text shows it. */
export type ConfigValue =
  | { kind: 'string'; value: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'object'; object: ConfigObject }
  | PathExpression
  | { kind: 'computed' };

/** An object literal from the config text. */
export interface ConfigObject {
  props: Map<string, ConfigValue>;
}

const PUNCT = new Set(['{', '}', '[', ']', '(', ')', ',', ':', ';']);
const WORD = /[\w$]/;
/** After these a `/` starts a regex literal, not a division. */
const REGEX_AFTER = new Set([
  '(',
  ',',
  '=',
  ':',
  '[',
  '!',
  '&',
  '|',
  '?',
  '{',
  '}',
  ';',
  '+',
  '-',
  '*',
  '%',
  '<',
  '>',
  '~',
  '^',
]);

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  const n = src.length;
  let i = 0;
  const prevAllowsRegex = (): boolean => {
    const prev = tokens.at(-1);
    if (!prev) return true;
    if (prev.t === 'punct' || prev.t === 'op') return REGEX_AFTER.has(prev.v);
    return (
      prev.t === 'word' && ['return', 'typeof', 'in', 'of', 'case', 'export', 'default'].includes(prev.v)
    );
  };
  while (i < n) {
    const ch = src[i]!;
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '/' && src[i + 1] === '/') {
      const end = src.indexOf('\n', i);
      i = end === -1 ? n : end;
    } else if (ch === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end === -1 ? n : end + 2;
    } else if (ch === '/' && prevAllowsRegex()) {
      // Skip a regex literal so quotes or braces inside it do not derail the scan.
      let j = i + 1;
      let inClass = false;
      while (j < n && src[j] !== '\n') {
        const c = src[j]!;
        if (c === '\\') j++;
        else if (c === '[') inClass = true;
        else if (c === ']') inClass = false;
        else if (c === '/' && !inClass) break;
        j++;
      }
      j++;
      while (j < n && /[a-z]/i.test(src[j]!)) j++;
      tokens.push({ t: 'op', v: 'regex' });
      i = j;
    } else if (ch === '"' || ch === "'") {
      let value = '';
      let j = i + 1;
      while (j < n && src[j] !== ch && src[j] !== '\n') {
        if (src[j] === '\\' && j + 1 < n) {
          const e = src[j + 1]!;
          value += ESCAPES[e] ?? e;
          j += 2;
        } else {
          value += src[j];
          j++;
        }
      }
      tokens.push({ t: 'str', v: value, literal: true });
      i = j + 1;
    } else if (ch === '`') {
      let value = '';
      let literal = true;
      let j = i + 1;
      while (j < n && src[j] !== '`') {
        if (src[j] === '\\' && j + 1 < n) {
          value += ESCAPES[src[j + 1]!] ?? src[j + 1];
          j += 2;
        } else if (src[j] === '$' && src[j + 1] === '{') {
          literal = false;
          let depth = 1;
          j += 2;
          while (j < n && depth > 0) {
            if (src[j] === '{') depth++;
            else if (src[j] === '}') depth--;
            j++;
          }
        } else {
          value += src[j];
          j++;
        }
      }
      tokens.push({ t: 'str', v: value, literal });
      i = j + 1;
    } else if (WORD.test(ch)) {
      let j = i + 1;
      while (j < n && WORD.test(src[j]!)) j++;
      tokens.push({ t: 'word', v: src.slice(i, j) });
      i = j;
    } else {
      tokens.push(PUNCT.has(ch) ? { t: 'punct', v: ch } : { t: 'op', v: ch });
      i++;
    }
  }
  return tokens;
}

/**
 * Every object literal in `src`, outermost first (source order of their opening braces).
 * Keys whose value is not a plain string or object literal are `computed`.
 */
export function scanObjects(src: string): ConfigObject[] {
  const tokens = tokenize(src);
  const all: ConfigObject[] = [];
  let i = 0;
  const isPunct = (at: number, v: string): boolean => {
    const tk = tokens[at];
    return tk?.t === 'punct' && tk.v === v;
  };
  const endsValue = (at: number): boolean => at >= tokens.length || isPunct(at, ',') || isPunct(at, '}');

  const isOp = (at: number, v: string): boolean => {
    const tk = tokens[at];
    return tk?.t === 'op' && tk.v === v;
  };
  const isWord = (at: number, v: string): boolean => {
    const tk = tokens[at];
    return tk?.t === 'word' && tk.v === v;
  };

  /** `path.resolve(__dirname, 'dist')` and kin at token `i`: the path it names, or null (i unchanged). */
  const parsePath = (): PathExpression | null => {
    let at = i;
    let callee = '';
    if (isWord(at, 'path') && isOp(at + 1, '.')) {
      callee = 'path.';
      at += 2;
      if (isWord(at, 'posix') && isOp(at + 1, '.')) {
        callee += 'posix.';
        at += 2;
      }
    }
    const fn = tokens[at];
    if (fn?.t !== 'word' || (fn.v !== 'resolve' && fn.v !== 'join') || !isPunct(at + 1, '(')) return null;
    callee += fn.v;
    at += 2;
    let from: PathExpression['from'] = fn.v === 'resolve' ? 'cwd' : 'relative';
    const segments: string[] = [];
    const shown: string[] = [];
    for (let index = 0; !isPunct(at, ')'); index++) {
      if (index > 0) {
        if (!isPunct(at, ',')) return null;
        at++;
        if (isPunct(at, ')')) break; // trailing comma
      }
      const tk = tokens[at];
      if (tk?.t === 'str' && tk.literal) {
        // An absolute segment restarts resolve(), and starts join() when it comes first: the folder is
        // then outside the project. Later join() segments stay under what comes before them.
        const absolute = tk.v.startsWith('/') || /^[A-Za-z]:/.test(tk.v);
        if (absolute && (fn.v === 'resolve' || index === 0)) {
          from = 'absolute';
          segments.length = 0;
        }
        segments.push(tk.v);
        shown.push(`'${tk.v}'`);
        at++;
      } else if (index === 0 && isWord(at, '__dirname')) {
        from = 'config-dir';
        shown.push('__dirname');
        at++;
      } else if (
        index === 0 &&
        isWord(at, 'import') &&
        isOp(at + 1, '.') &&
        isWord(at + 2, 'meta') &&
        isOp(at + 3, '.') &&
        isWord(at + 4, 'dirname')
      ) {
        from = 'config-dir';
        shown.push('import.meta.dirname');
        at += 5;
      } else if (
        index === 0 &&
        isWord(at, 'process') &&
        isOp(at + 1, '.') &&
        isWord(at + 2, 'cwd') &&
        isPunct(at + 3, '(') &&
        isPunct(at + 4, ')')
      ) {
        from = 'cwd';
        shown.push('process.cwd()');
        at += 5;
      } else {
        return null;
      }
    }
    at++; // the closing parenthesis
    if (!endsValue(at)) return null;
    i = at;
    return { kind: 'path', from, segments, text: `${callee}(${shown.join(', ')})` };
  };

  const parseValue = (): ConfigValue => {
    const tk = tokens[i];
    const pathValue = parsePath();
    if (pathValue) return pathValue;
    if (tk?.t === 'str' && endsValue(i + 1)) {
      i++;
      return tk.literal ? { kind: 'string', value: tk.v } : { kind: 'computed' };
    }
    if (tk?.t === 'word' && (tk.v === 'true' || tk.v === 'false') && endsValue(i + 1)) {
      i++;
      return { kind: 'boolean', value: tk.v === 'true' };
    }
    if (isPunct(i, '{')) {
      const object = parseObject();
      if (endsValue(i)) return { kind: 'object', object };
    }
    // Anything else: skip to the end of the expression, still collecting objects inside it
    // (e.g. `adapter({ pages: 'public' })` or `defineConfig(() => ({ … }))`).
    let depth = 0;
    while (i < tokens.length) {
      const cur = tokens[i]!;
      if (cur.t === 'punct') {
        if (cur.v === '{') {
          parseObject();
          continue;
        }
        if (cur.v === '(' || cur.v === '[') depth++;
        else if (cur.v === ')' || cur.v === ']') {
          if (depth === 0) break;
          depth--;
        } else if (depth === 0 && (cur.v === ',' || cur.v === '}')) break;
      }
      i++;
    }
    return { kind: 'computed' };
  };

  function parseObject(): ConfigObject {
    const object: ConfigObject = { props: new Map() };
    all.push(object);
    i++; // the opening brace
    while (i < tokens.length && !isPunct(i, '}')) {
      if (isPunct(i, ',') || isPunct(i, ';')) {
        i++;
        continue;
      }
      const tk = tokens[i]!;
      let key: string | null = null;
      if ((tk.t === 'word' || (tk.t === 'str' && tk.literal)) && isPunct(i + 1, ':')) {
        key = tk.v;
        i += 2;
      }
      const start = i;
      const value = parseValue();
      // First definition wins, as it is the one a reader sees; later duplicates are rare in configs.
      if (key !== null && !object.props.has(key)) object.props.set(key, value);
      // A stray `)` or `]` would stop the expression without progress; step over it.
      if (i === start) i++;
    }
    i++; // the closing brace
    return object;
  }

  while (i < tokens.length) {
    if (isPunct(i, '{')) parseObject();
    else i++;
  }
  return all;
}

/** The value of `key` in the first object that has it and satisfies `where`. */
export function findProp(
  objects: readonly ConfigObject[],
  key: string,
  where: (object: ConfigObject) => boolean = () => true,
): { value: ConfigValue; owner: ConfigObject } | null {
  for (const object of objects) {
    const value = object.props.get(key);
    if (value && where(object)) return { value, owner: object };
  }
  return null;
}

/** `object[key]` when it is an object literal. */
export const childObject = (object: ConfigObject | undefined, key: string): ConfigObject | undefined => {
  const value = object?.props.get(key);
  return value?.kind === 'object' ? value.object : undefined;
};

/** `object[key]` when it is a literal `true` or `false`. */
export const booleanProp = (object: ConfigObject | undefined, key: string): boolean | undefined => {
  const value = object?.props.get(key);
  return value?.kind === 'boolean' ? value.value : undefined;
};

/** `object[key]` when it is a plain string. */
export const stringProp = (object: ConfigObject | undefined, key: string): string | undefined => {
  const value = object?.props.get(key);
  return value?.kind === 'string' ? value.value : undefined;
};
