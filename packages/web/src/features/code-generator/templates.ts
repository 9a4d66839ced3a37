/**
 * The code generator's templates (spec §2.8: Component, API, Function, Schema). The protocol has no
 * generation endpoint, so code is generated here, deterministically, from a name the user types.
 * Output is plain JavaScript (ESM, JSX for the component) because the inserted file is named
 * `generated-code-{timestamp}.js` (spec §9); types travel as JSDoc so editors still check them.
 */

export const CODE_KINDS = ['component', 'api', 'function', 'schema'] as const;
export type CodeKind = (typeof CODE_KINDS)[number];

export const KIND_LABELS: Record<CodeKind, string> = {
  component: 'Component',
  api: 'API',
  function: 'Function',
  schema: 'Schema',
};

/** Used when the name field is left empty. */
export const DEFAULT_NAMES: Record<CodeKind, string> = {
  component: 'UserCard',
  api: 'users',
  function: 'formatPrice',
  schema: 'User',
};

/** What each kind produces, for the button's tooltip. */
export const KIND_DESCRIPTIONS: Record<CodeKind, string> = {
  component: 'A React component with documented props and local state',
  api: 'An Express router with list, read, create, update and delete routes',
  function: 'A function with JSDoc types, input checks and an example',
  schema: 'A zod schema with a create variant and a safe parser',
};

/** The name cannot make an identifier; the message says why. */
export class GenerationError extends Error {
  override readonly name = 'GenerationError';
}

/** The words of a name in any style: "user card", "user-card", "user_card", "UserCard", "userCard". */
export function nameWords(raw: string): string[] {
  return raw
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

export interface NameForms {
  /** UserCard */
  pascal: string;
  /** userCard */
  camel: string;
  /** user-card */
  kebab: string;
  /** user card */
  words: string;
}

export function nameForms(raw: string): NameForms {
  const words = nameWords(raw);
  if (words.length === 0) {
    throw new GenerationError(`"${raw.trim()}" has no letters or digits to build a name from.`);
  }
  if (/^[0-9]/.test(words[0]!)) {
    throw new GenerationError(`A name cannot start with a digit ("${raw.trim()}").`);
  }
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const pascal = words.map(cap).join('');
  return {
    pascal,
    camel: pascal.charAt(0).toLowerCase() + pascal.slice(1),
    kebab: words.join('-'),
    words: words.join(' '),
  };
}

function component({ pascal, kebab }: NameForms): string {
  return `import { useState } from 'react';

/**
 * ${pascal}: a titled section whose content can be shown or hidden.
 *
 * @param {object} props
 * @param {string} props.title - Heading shown at the top.
 * @param {import('react').ReactNode} [props.children] - Content under the heading.
 * @param {boolean} [props.defaultOpen=true] - Whether the content starts shown.
 * @param {(open: boolean) => void} [props.onToggle] - Called after the user shows or hides the content.
 */
export function ${pascal}({ title, children, defaultOpen = true, onToggle }) {
  const [open, setOpen] = useState(defaultOpen);

  const toggle = () => {
    const next = !open;
    setOpen(next);
    onToggle?.(next);
  };

  return (
    <section className="${kebab}">
      <header className="${kebab}__header">
        <h2>{title}</h2>
        <button type="button" aria-expanded={open} onClick={toggle}>
          {open ? 'Hide' : 'Show'}
        </button>
      </header>
      {open ? <div className="${kebab}__body">{children}</div> : null}
    </section>
  );
}
`;
}

function api({ camel, kebab, words }: NameForms): string {
  const router = `${camel}Router`;
  return `import { Router } from 'express';

/**
 * REST routes for ${words}. Mount with: app.use('/api/${kebab}', ${router}) after app.use(express.json()).
 * Items live in an in-memory Map: replace it with your database.
 */
export const ${router} = Router();

const items = new Map();
let nextId = 1;

const notFound = (res, id) => res.status(404).json({ error: \`No ${words} item with id \${id}\` });

${router}.get('/', (req, res) => {
  res.json([...items.values()]);
});

${router}.get('/:id', (req, res) => {
  const item = items.get(req.params.id);
  if (!item) return notFound(res, req.params.id);
  res.json(item);
});

${router}.post('/', (req, res) => {
  if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body)) {
    return res.status(400).json({ error: 'Send a JSON object' });
  }
  const id = String(nextId++);
  const item = { ...req.body, id, createdAt: new Date().toISOString() };
  items.set(id, item);
  res.status(201).json(item);
});

${router}.put('/:id', (req, res) => {
  const existing = items.get(req.params.id);
  if (!existing) return notFound(res, req.params.id);
  const item = { ...existing, ...req.body, id: existing.id, createdAt: existing.createdAt };
  items.set(existing.id, item);
  res.json(item);
});

${router}.delete('/:id', (req, res) => {
  if (!items.delete(req.params.id)) return notFound(res, req.params.id);
  res.status(204).end();
});
`;
}

function fn({ camel, words }: NameForms): string {
  const sentence = words.charAt(0).toUpperCase() + words.slice(1);
  return `/**
 * ${sentence}.
 *
 * @param {string} input - The value to work on.
 * @param {object} [options]
 * @param {boolean} [options.trim=true] - Ignore spaces around the input.
 * @param {string} [options.fallback=''] - Returned when the input is empty.
 * @returns {string} The result.
 * @throws {TypeError} When input is not a string.
 *
 * @example
 * ${camel}('  hello  '); // => 'hello'
 */
export function ${camel}(input, options = {}) {
  if (typeof input !== 'string') {
    throw new TypeError(\`${camel} expects a string, got \${typeof input}\`);
  }
  const { trim = true, fallback = '' } = options;
  const value = trim ? input.trim() : input;
  if (value.length === 0) return fallback;
  // The work of ${camel} goes here.
  return value;
}
`;
}

function schema({ pascal, words }: NameForms): string {
  const name = `${pascal}Schema`;
  return `import { z } from 'zod';

/** A ${words} as stored and returned by the API. */
export const ${name} = z.object({
  id: z.string().min(1),
  name: z.string().trim().min(1, 'Name is required'),
  email: z.string().email('Enter a valid email address'),
  tags: z.array(z.string()).default([]),
  createdAt: z.coerce.date(),
});

/** What a client sends to create a ${words}: the server sets id and createdAt. */
export const Create${name} = ${name}.omit({ id: true, createdAt: true });

/**
 * Check untrusted input (a request body, a form) against ${name}.
 *
 * @param {unknown} input
 * @returns {{ ok: true, value: import('zod').infer<typeof ${name}> } | { ok: false, errors: Record<string, string[]> }}
 */
export function parse${pascal}(input) {
  const result = ${name}.safeParse(input);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, errors: result.error.flatten().fieldErrors };
}
`;
}

const TEMPLATES: Record<CodeKind, (forms: NameForms) => string> = {
  component,
  api,
  function: fn,
  schema,
};

/**
 * The code for `kind`, named from `rawName` (the kind's default name when blank). Throws
 * GenerationError when the name cannot make an identifier.
 */
export function generateCode(kind: CodeKind, rawName: string): string {
  const name = rawName.trim() || DEFAULT_NAMES[kind];
  return TEMPLATES[kind](nameForms(name));
}
