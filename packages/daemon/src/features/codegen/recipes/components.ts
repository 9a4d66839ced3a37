import ts from 'typescript';
import type { Field, TypeNode } from '../grammar.ts';
import type { Emitted, Language } from '../emit-common.ts';
import { labelOf, pascalName } from '../names.ts';
import { literal, objectType, renderTemplate, type Substitutions } from '../ts-template.ts';
import { componentName, hasWord, type Desc } from './describe.ts';
import type { Recipe } from './recipe.ts';

/**
 * React components developers ask for most, accessible by construction (labels tied to inputs,
 * roles on tables, dialogs, tabs and status messages): forms with validation and submit (login,
 * signup, contact, search, or any fields), data tables (search, sorting, pagination, selection,
 * loading and error states), lists, modals, tabs, and a loading/error state.
 */

function component(name: string, template: string, language: Language, subs: Substitutions): Emitted {
  return {
    name,
    fileName: `${name}.${language === 'typescript' ? 'tsx' : 'jsx'}`,
    code: renderTemplate(template, { $Name: name, $Props: `${name}Props`, ...subs }, language, true),
  };
}

// ----------------------------------------------------------------------------------------------
// Forms

type Input =
  | 'text'
  | 'email'
  | 'password'
  | 'number'
  | 'url'
  | 'date'
  | 'tel'
  | 'search'
  | 'checkbox'
  | 'textarea'
  | 'select';

interface FormField {
  name: string;
  label: string;
  input: Input;
  required: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  options?: string[];
  sameAs?: string;
  autoComplete?: string;
}

type FormKind = 'login' | 'signup' | 'contact' | 'search' | 'form';

const FORM_KINDS: Record<FormKind, { title: string; submit: string; name: string; fields: Field[] }> = {
  login: {
    title: 'Log in',
    submit: 'Log in',
    name: 'LoginForm',
    fields: [
      { name: 'email', type: { kind: 'email' }, optional: false },
      { name: 'password', type: { kind: 'string' }, optional: false },
    ],
  },
  signup: {
    title: 'Sign up',
    submit: 'Create account',
    name: 'SignupForm',
    fields: [
      { name: 'name', type: { kind: 'string' }, optional: false },
      { name: 'email', type: { kind: 'email' }, optional: false },
      { name: 'password', type: { kind: 'string' }, optional: false },
      { name: 'confirmPassword', type: { kind: 'string' }, optional: false },
    ],
  },
  contact: {
    title: 'Contact',
    submit: 'Send',
    name: 'ContactForm',
    fields: [
      { name: 'name', type: { kind: 'string' }, optional: false },
      { name: 'email', type: { kind: 'email' }, optional: false },
      { name: 'message', type: { kind: 'string' }, optional: false },
    ],
  },
  search: {
    title: 'Search',
    submit: 'Search',
    name: 'SearchForm',
    fields: [{ name: 'query', type: { kind: 'string' }, optional: false }],
  },
  form: { title: 'Form', submit: 'Submit', name: 'Form', fields: [] },
};

function formKind(d: Desc): FormKind {
  if (/\b(log ?in|sign ?in|signin)\b/.test(d.text)) return 'login';
  if (/\b(newsletter|subscribe)\b/.test(d.text)) return 'form';
  if (/\b(sign ?up|register|registration|create (an )?account)\b/.test(d.text)) return 'signup';
  if (/\bcontact\b/.test(d.text)) return 'contact';
  if (/\bsearch\b/.test(d.text) && !/\btable\b/.test(d.text)) return 'search';
  return 'form';
}

const LONG_TEXT = /^(message|body|comment|comments|description|bio|notes?|content|feedback|details|about)$/i;

function inputOf(field: Field, kind: FormKind): FormField | null {
  const type = field.type;
  const base = { name: field.name, label: labelOf(field.name), required: !field.optional };
  if (/password/i.test(field.name)) {
    const confirm = /^(confirm|repeat)/i.test(field.name);
    return {
      ...base,
      input: 'password',
      ...(kind === 'signup'
        ? { minLength: 8, autoComplete: 'new-password' }
        : { autoComplete: 'current-password' }),
      ...(confirm ? { sameAs: 'password' } : {}),
    };
  }
  switch (type.kind) {
    case 'email':
      return { ...base, input: 'email', autoComplete: 'email' };
    case 'url':
      return { ...base, input: 'url' };
    case 'number': {
      const min = type.min ?? (type.gt !== undefined ? type.gt : undefined);
      const max = type.max ?? (type.lt !== undefined ? type.lt : undefined);
      return {
        ...base,
        input: 'number',
        ...(min !== undefined ? { min } : {}),
        ...(max !== undefined ? { max } : {}),
      };
    }
    case 'boolean':
      // A checkbox must be ticked only when it is an agreement (terms, consent).
      return { ...base, input: 'checkbox', required: /terms|agree|accept|consent/i.test(field.name) };
    case 'date':
      return { ...base, input: 'date' };
    case 'enum':
      return { ...base, input: 'select', options: type.values };
    case 'string':
    case 'uuid': {
      const bounds = {
        ...(type.kind === 'string' && type.min !== undefined ? { minLength: type.min } : {}),
        ...(type.kind === 'string' && type.max !== undefined ? { maxLength: type.max } : {}),
      };
      if (LONG_TEXT.test(field.name)) return { ...base, ...bounds, input: 'textarea' };
      if (/phone|tel|mobile/i.test(field.name))
        return { ...base, ...bounds, input: 'tel', autoComplete: 'tel' };
      if (/^(query|q|search|term|keywords?)$/i.test(field.name))
        return { ...base, ...bounds, input: 'search' };
      return {
        ...base,
        ...bounds,
        input: 'text',
        ...(/^(name|fullName)$/.test(field.name) ? { autoComplete: 'name' } : {}),
      };
    }
    default:
      return null;
  }
}

/** The type of a form value as the form hands it over. */
function valueType(field: FormField): TypeNode {
  switch (field.input) {
    case 'number':
      return { kind: 'number', integer: false };
    case 'checkbox':
      return { kind: 'boolean' };
    case 'date':
      return { kind: 'date' };
    case 'select':
      return { kind: 'enum', values: field.options ?? [] };
    default:
      return { kind: 'string' };
  }
}

const FORM_TEMPLATE = String.raw`import { useId, useState, type FormEvent } from 'react';

/** The values the form hands to onSubmit once every field is valid. */
export type $Values = $VALUES;

export interface $Props {
  /** Called with the values once they are valid. */
  onSubmit: (values: $Values) => void | Promise<void>;
  /** An error to show above the button (a wrong password, an address already taken…). */
  error?: string;
  /** While true the button is disabled: the submission is under way. */
  submitting?: boolean;
}

interface FieldSpec {
  name: string;
  label: string;
  input: 'text' | 'email' | 'password' | 'number' | 'url' | 'date' | 'tel' | 'search' | 'checkbox' | 'textarea' | 'select';
  required: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  options?: readonly string[];
  sameAs?: string;
  autoComplete?: string;
}

const FIELDS: readonly FieldSpec[] = $FIELDS;

type Draft = Record<string, string | boolean>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What is wrong with one field's value, or undefined. */
function problemOf(field: FieldSpec, value: string | boolean, draft: Draft): string | undefined {
  if (typeof value === 'boolean') return field.required && !value ? field.label + ' must be checked.' : undefined;
  const text = field.input === 'password' ? value : value.trim();
  if (text === '') return field.required ? field.label + ' is required.' : undefined;
  if (field.input === 'email' && !EMAIL.test(text)) return 'Enter a valid email address.';
  if (field.input === 'url' && !URL.canParse(text)) return 'Enter a full URL, such as https://example.com.';
  if (field.input === 'number') {
    const n = Number(text);
    if (!Number.isFinite(n)) return field.label + ' must be a number.';
    if (field.min !== undefined && n < field.min) return field.label + ' must be at least ' + String(field.min) + '.';
    if (field.max !== undefined && n > field.max) return field.label + ' must be at most ' + String(field.max) + '.';
  }
  if (field.minLength !== undefined && text.length < field.minLength)
    return field.label + ' must be at least ' + String(field.minLength) + ' characters.';
  if (field.maxLength !== undefined && text.length > field.maxLength)
    return field.label + ' must be at most ' + String(field.maxLength) + ' characters.';
  if (field.sameAs !== undefined && value !== draft[field.sameAs]) return field.label + ' does not match.';
  return undefined;
}

/** The draft as typed values: numbers as numbers, dates as dates, text trimmed (passwords as typed). */
function valuesOf(draft: Draft): $Values {
  const values: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = draft[field.name] ?? '';
    if (typeof value === 'boolean') values[field.name] = value;
    else if (value.trim() === '' && !field.required) continue;
    else if (field.input === 'number') values[field.name] = Number(value);
    else if (field.input === 'date') values[field.name] = new Date(value);
    else values[field.name] = field.input === 'password' ? value : value.trim();
  }
  return values as $Values;
}

export function $Name({ onSubmit, error, submitting = false }: $Props) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() =>
    Object.fromEntries(FIELDS.map((field) => [field.name, field.input === 'checkbox' ? false : ''])),
  );
  const [problems, setProblems] = useState<Record<string, string>>({});
  const set = (name: string, value: string | boolean) => setDraft((previous) => ({ ...previous, [name]: value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    for (const field of FIELDS) {
      const problem = problemOf(field, draft[field.name] ?? '', draft);
      if (problem !== undefined) found[field.name] = problem;
    }
    setProblems(found);
    if (Object.keys(found).length === 0) void onSubmit(valuesOf(draft));
  };

  return (
    <form aria-label="$title" onSubmit={submit} noValidate>
      {FIELDS.map((field) => {
        const inputId = id + '-' + field.name;
        const problem = problems[field.name];
        const value = draft[field.name];
        const shared = {
          id: inputId,
          name: field.name,
          required: field.required,
          'aria-invalid': problem !== undefined,
          'aria-describedby': problem !== undefined ? inputId + '-problem' : undefined,
        };
        return (
          <div key={field.name} className="field">
            <label htmlFor={inputId}>{field.label}</label>
            {field.input === 'checkbox' ? (
              <input {...shared} type="checkbox" checked={value === true} onChange={(event) => set(field.name, event.target.checked)} />
            ) : field.input === 'textarea' ? (
              <textarea {...shared} value={String(value ?? '')} onChange={(event) => set(field.name, event.target.value)} />
            ) : field.input === 'select' ? (
              <select {...shared} value={String(value ?? '')} onChange={(event) => set(field.name, event.target.value)}>
                <option value="">Choose…</option>
                {field.options?.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : (
              <input
                {...shared}
                type={field.input}
                autoComplete={field.autoComplete}
                value={String(value ?? '')}
                onChange={(event) => set(field.name, event.target.value)}
              />
            )}
            {problem !== undefined ? (
              <p id={inputId + '-problem'} className="field-problem">
                {problem}
              </p>
            ) : null}
          </div>
        );
      })}
      {error ? <p role="alert">{error}</p> : null}
      <button type="submit" disabled={submitting}>
        {'$submit'}
      </button>
    </form>
  );
}
`;

const form: Recipe = {
  id: 'form',
  kinds: ['component'],
  fields: 'all',
  summary: 'a form with a labelled input per field, validation messages and a submit button',
  match: (d) =>
    hasWord(d, /^(form|forms|login|signin|signup|register|registration)$/) ||
    /\b(log in|sign in|sign up|contact form|search (bar|box|form|input))\b/.test(d.text),
  vocabulary:
    /^(form|forms|login|log|signin|sign|in|up|signup|register|registration|create|account|contact|search|bar|box|query|submit|submits|submitted|submission|send|sends|button|buttons|validation|validate|validates|validated|validating|valid|invalid|labelled|labeled|labels?|inputs?|errors?|messages?|shows?|inline|checkbox|remember|me|terms|accept|agree|confirm|confirmation|user|users|credentials|minimum|min|characters|matching|match|matches|page|newsletter|subscribe|feedback|profile|edit|settings|details|address)$/,
  build(d, language) {
    const kind = formKind(d);
    const preset = FORM_KINDS[kind];
    const described = d.spec.fields.filter(
      (f) =>
        f.type.kind !== 'callback' &&
        f.type.kind !== 'node' &&
        !/^(validation|validate|submit|button|buttons|errors|labels?|inputs?)$/i.test(f.name),
    );
    const fields = described.length > 0 ? [...described] : [...preset.fields];
    const has = (re: RegExp) => fields.some((f) => re.test(f.name));
    if (kind === 'signup' && has(/^password$/) && !has(/^(confirm|repeat)/) && /\bconfirm/.test(d.text))
      fields.push({ name: 'confirmPassword', type: { kind: 'string' }, optional: false });
    if (/\bremember me\b/.test(d.text) && !has(/^remember/))
      fields.push({ name: 'rememberMe', type: { kind: 'boolean' }, optional: true });
    if (/\bterms\b/.test(d.text) && !has(/terms/))
      fields.push({ name: 'acceptTerms', type: { kind: 'boolean' }, optional: false });
    const inputs = fields.map((f) => inputOf(f, kind)).filter((f): f is FormField => f !== null);
    const values: Field[] = inputs.map((i) => ({
      name: i.name,
      type: valueType(i),
      optional: !i.required && i.input !== 'checkbox',
    }));
    const name = componentName(d, preset.name, /^(form|forms)$/);
    const title = kind === 'form' ? labelOf(name.replace(/Form$/, '') || name) : preset.title;
    return component(name, FORM_TEMPLATE, language, {
      $Values: `${name}Values`,
      $VALUES: objectType(values),
      $FIELDS: literal(inputs),
      $title: title,
      $submit: preset.submit,
    });
  },
};

// ----------------------------------------------------------------------------------------------
// Tables and lists

/** Words read as fields that name a feature of the table, not a column ("with search and pagination"). */
const FEATURE_WORDS =
  /^(loading|error|errors|pageSize|pagination|paginated|pages?|search|searchable|sorting|sortable|sort|filter|filters|filtering|spinner|selection|columns?|rows?)$/i;

/** The array of records the description names (users: User[]), if any. */
function rowsField(d: Desc): { name: string; row: string; columns: Field[] } {
  const array = d.spec.fields.find((f) => f.type.kind === 'array' && f.type.of.kind === 'ref');
  const scalars = d.spec.fields.filter(
    (f) => f !== array && !['callback', 'node', 'array'].includes(f.type.kind) && !FEATURE_WORDS.test(f.name),
  );
  if (array && array.type.kind === 'array' && array.type.of.kind === 'ref')
    return { name: array.name, row: array.type.of.name, columns: scalars };
  const entity =
    /\b(user|product|order|customer|employee|invoice|task|todo|post|item|book|movie|student|transaction)s?\b/.exec(
      d.text,
    )?.[1];
  return {
    name: 'rows',
    row: entity ? pascalName(entity, 'Row') : 'Row',
    columns: scalars,
  };
}

const TABLE_TEMPLATE = String.raw`import { useMemo, useState } from 'react';

/** A row of the table: its columns are the fields below, or the keys of the rows when there are none. */
export interface $Row {
  $ROW_FIELDS: never;
  [key: string]: unknown;
}

export interface $Props {
  $rows: readonly $Row[];
  /** Called with the row clicked (or chosen with Enter). */
  onSelect?: (row: $Row) => void;
  /** While true a spinner (role status) stands in for the table. */
  loading?: boolean;
  /** A load error, shown instead of the table (role alert). */
  error?: string;
  /** Rows per page; 0 shows every row. */
  pageSize?: number;
  /** Whether the search box is shown. */
  searchable?: boolean;
  caption?: string;
}

interface Column {
  key: string;
  label: string;
}

const COLUMNS: readonly Column[] = $COLUMNS;

const field = (row: $Row, key: string): unknown => (row as Record<string, unknown>)[key];

/** A cell's value as text: dates as dates, booleans as Yes/No, objects as JSON. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toLocaleDateString();
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  return cellText(a).localeCompare(cellText(b), undefined, { numeric: true });
}

const label = (key: string): string => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export function $Name({ $rows: rows, onSelect, loading = false, error, pageSize = $PAGE_SIZE, searchable = $SEARCHABLE, caption = '$caption' }: $Props) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<{ key: string; descending: boolean } | null>(null);
  const [page, setPage] = useState(0);

  const columns = useMemo<readonly Column[]>(() => {
    if (COLUMNS.length > 0) return COLUMNS;
    const keys = new Set<string>();
    for (const row of rows) for (const key of Object.keys(row)) keys.add(key);
    return [...keys].map((key) => ({ key, label: label(key) }));
  }, [rows]);

  const shown = useMemo(() => {
    const needle = query.trim().toLowerCase();
    const matching =
      needle === '' ? [...rows] : rows.filter((row) => columns.some((c) => cellText(field(row, c.key)).toLowerCase().includes(needle)));
    if (sort) matching.sort((a, b) => compare(field(a, sort.key), field(b, sort.key)) * (sort.descending ? -1 : 1));
    return matching;
  }, [rows, columns, query, sort]);

  if (loading) {
    return (
      <div role="status" aria-live="polite" className="table-loading">
        <span className="spinner" aria-hidden="true" />
        Loading…
      </div>
    );
  }
  if (error) return <div role="alert">{error}</div>;

  const pages = pageSize > 0 ? Math.max(1, Math.ceil(shown.length / pageSize)) : 1;
  const current = Math.min(page, pages - 1);
  const visible = pageSize > 0 ? shown.slice(current * pageSize, (current + 1) * pageSize) : shown;
  const toggle = (key: string) => {
    setSort((previous) => (previous?.key === key ? { key, descending: !previous.descending } : { key, descending: false }));
    setPage(0);
  };

  return (
    <div className="data-table">
      {searchable ? (
        <input
          type="search"
          aria-label="Search"
          placeholder="Search…"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setPage(0);
          }}
        />
      ) : null}
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                aria-sort={sort?.key === column.key ? (sort.descending ? 'descending' : 'ascending') : 'none'}
              >
                <button type="button" onClick={() => toggle(column.key)}>
                  {column.label}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {visible.length === 0 ? (
            <tr>
              <td colSpan={Math.max(columns.length, 1)}>{rows.length === 0 ? 'Nothing to show.' : 'No row matches the search.'}</td>
            </tr>
          ) : (
            visible.map((row, index) => (
              <tr
                key={String(field(row, 'id') ?? current * pageSize + index)}
                tabIndex={onSelect ? 0 : undefined}
                onClick={onSelect ? () => onSelect(row) : undefined}
                onKeyDown={
                  onSelect
                    ? (event) => {
                        if (event.key === 'Enter') onSelect(row);
                      }
                    : undefined
                }
              >
                {columns.map((column) => (
                  <td key={column.key}>{cellText(field(row, column.key))}</td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
      {pageSize > 0 && shown.length > pageSize ? (
        <nav aria-label="Pages">
          <button type="button" disabled={current === 0} onClick={() => setPage(current - 1)}>
            Previous
          </button>
          <span>
            Page {current + 1} of {pages}
          </span>
          <button type="button" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
            Next
          </button>
        </nav>
      ) : null}
    </div>
  );
}
`;

const table: Recipe = {
  id: 'table',
  kinds: ['component'],
  fields: 'all',
  summary:
    'a table with a column per field, search, sortable headers, pagination, selection, loading and error states',
  match: (d) => hasWord(d, /^(table|tables|datatable|datagrid|grid|spreadsheet)$/),
  vocabulary:
    /^(table|tables|datatable|datagrid|grid|data|rows?|columns?|headers?|search|searchable|searching|filter|filters|filterable|filtering|sort|sorts|sortable|sorting|sorted|paginate|paginated|pagination|pages?|paging|size|select|selectable|selection|selected|click|clicks|clicked|row|loading|loader|spinner|spin|state|states|errors?|empty|shows?|displays?|users?|products?|orders?|customers?|employees?|invoices?|tasks?|todos?|posts?|books?|movies?|students?|transactions?|searchbar|box|caption|per)$/,
  build(d, language) {
    const rows = rowsField(d);
    const name = componentName(d, `${rows.row}Table`, /^(table|grid|datatable|datagrid)$/);
    const paginated = hasWord(d, /^(paginate|paginated|pagination|pages|page|paging)$/);
    const searchable = hasWord(d, /^(search|searchable|searching|filter|filters|filterable|filtering)$/);
    return component(name, TABLE_TEMPLATE, language, {
      $ROW_FIELDS: objectType(rows.columns).members,
      $Row: pascalName(rows.row, 'Row'),
      $rows: rows.name,
      $COLUMNS: literal(rows.columns.map((c) => ({ key: c.name, label: labelOf(c.name) }))),
      $PAGE_SIZE: ts.factory.createNumericLiteral(paginated ? 10 : 0),
      $SEARCHABLE: searchable ? ts.factory.createTrue() : ts.factory.createFalse(),
      $caption: labelOf(`${rows.row}s`),
    });
  },
};

const LIST_TEMPLATE = String.raw`import type { ReactNode } from 'react';

export interface $Item {
  $ITEM_FIELDS: never;
  [key: string]: unknown;
}

export interface $Props {
  $items: readonly $Item[];
  /** How an item is shown; by default its title, name or label. */
  renderItem?: (item: $Item) => ReactNode;
  /** Called with the item clicked. */
  onSelect?: (item: $Item) => void;
  /** While true a spinner (role status) stands in for the list. */
  loading?: boolean;
  /** Shown when there are no items. */
  emptyText?: string;
}

const TEXT_KEYS = ['title', 'name', 'label', 'text'];

const field = (item: $Item, key: string): unknown => (item as Record<string, unknown>)[key];

function textOf(item: $Item): string {
  for (const key of TEXT_KEYS) {
    const value = field(item, key);
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return JSON.stringify(item);
}

export function $Name({ $items: items, renderItem, onSelect, loading = false, emptyText = 'Nothing here yet.' }: $Props) {
  if (loading) {
    return (
      <div role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        Loading…
      </div>
    );
  }
  if (items.length === 0) return <p>{emptyText}</p>;
  return (
    <ul aria-label="$label">
      {items.map((item, index) => {
        const content = renderItem ? renderItem(item) : textOf(item);
        return (
          <li key={String(field(item, 'id') ?? index)}>
            {onSelect ? (
              <button type="button" onClick={() => onSelect(item)}>
                {content}
              </button>
            ) : (
              content
            )}
          </li>
        );
      })}
    </ul>
  );
}
`;

const list: Recipe = {
  id: 'list',
  kinds: ['component'],
  fields: 'collections',
  summary: 'a list of the items, each shown by its title, selectable, with loading and empty states',
  match: (d) => hasWord(d, /^(list|listing|lists)$/) && !hasWord(d, /^(table|grid|form)$/),
  vocabulary:
    /^(list|listing|lists|items?|each|shows?|displays?|renders?|render|select|selectable|selected|click|clicks|clickable|loading|spinner|empty|state|message|title|titles|names?|labels?|users?|products?|orders?|tasks?|todos?|posts?|books?|movies?|contacts?|notifications?|comments?)$/,
  build(d, language) {
    const rows = rowsField(d);
    const item = rows.row === 'Row' ? 'ListItem' : rows.row;
    const itemsName = rows.name === 'rows' ? 'items' : rows.name;
    const name = componentName(d, `${item}List`, /^(list|listing)$/);
    return component(name, LIST_TEMPLATE, language, {
      $ITEM_FIELDS: objectType(rows.columns).members,
      $Item: pascalName(item, 'ListItem'),
      $items: itemsName,
      $label: labelOf(`${item}s`),
    });
  },
};

// ----------------------------------------------------------------------------------------------
// Modal, tabs, loading and error states

const MODAL_TEMPLATE = String.raw`import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface $Props {
  open: boolean;
  /** Called by the close button, Escape and a click outside the dialog. */
  onClose: () => void;
  title: string;
  children?: ReactNode;
}

/** A modal dialog: focus moves into it and back when it closes; Escape and a click outside close it. */
export function $Name({ open, onClose, title, children }: $Props) {
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      previous?.focus();
    };
  }, [open, onClose]);
  if (!open) return null;
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="modal"
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
`;

const modal: Recipe = {
  id: 'modal',
  kinds: ['component'],
  fields: 'collections',
  summary: 'a modal dialog with a title, closed by its button, Escape or a click outside',
  match: (d) => hasWord(d, /^(modal|modals|dialog|dialogs|popup|lightbox)$/),
  vocabulary:
    /^(modal|modals|dialog|dialogs|popup|lightbox|open|opens|opened|close|closes|closed|closing|title|content|children|button|escape|esc|key|outside|click|clicks|backdrop|overlay|focus|confirm|confirmation|onclose)$/,
  build: (d, language) =>
    component(componentName(d, 'Modal', /^(modal|dialog|popup)$/), MODAL_TEMPLATE, language, {}),
};

const TABS_TEMPLATE = String.raw`import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface Tab {
  id: string;
  label: string;
  content: ReactNode;
}

export interface $Props {
  tabs: readonly Tab[];
  /** The tab shown first (default: the first one). */
  initialTab?: string;
  /** Called with the id of the tab chosen. */
  onChange?: (id: string) => void;
}

/** Tabs as the ARIA pattern has them: a tablist, arrow keys, Home and End, one tabpanel shown. */
export function $Name({ tabs, initialTab, onChange }: $Props) {
  const base = useId();
  const [active, setActive] = useState(initialTab ?? tabs[0]?.id);
  const current = tabs.find((tab) => tab.id === active) ?? tabs[0];
  const choose = (id: string) => {
    setActive(id);
    onChange?.(id);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = tabs.findIndex((tab) => tab.id === current?.id);
    const next =
      event.key === 'ArrowRight' ? (at + 1) % tabs.length
      : event.key === 'ArrowLeft' ? (at - 1 + tabs.length) % tabs.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? tabs.length - 1
      : -1;
    const tab = tabs[next];
    if (!tab) return;
    event.preventDefault();
    choose(tab.id);
    document.getElementById(base + '-' + tab.id)?.focus();
  };
  return (
    <div className="tabs">
      <div role="tablist" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            id={base + '-' + tab.id}
            type="button"
            role="tab"
            aria-selected={tab.id === current?.id}
            aria-controls={base + '-' + tab.id + '-panel'}
            tabIndex={tab.id === current?.id ? 0 : -1}
            onClick={() => choose(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {current ? (
        <div role="tabpanel" id={base + '-' + current.id + '-panel'} aria-labelledby={base + '-' + current.id}>
          {current.content}
        </div>
      ) : null}
    </div>
  );
}
`;

const tabs: Recipe = {
  id: 'tabs',
  kinds: ['component'],
  fields: 'collections',
  summary: 'tabs: a tablist with keyboard navigation and one panel shown',
  match: (d) => hasWord(d, /^(tabs|tab|tabbed|tabset)$/),
  vocabulary:
    /^(tabs|tab|tabbed|tabset|panel|panels|active|selected|switch|switches|switching|between|keyboard|arrow|arrows|keys|labels?|content|contents|change|changes|onchange|initial|navigation)$/,
  build: (d, language) => component(componentName(d, 'Tabs', /^(tabs|tabset)$/), TABS_TEMPLATE, language, {}),
};

const STATUS_TEMPLATE = String.raw`import type { ReactNode } from 'react';

export interface $Props {
  loading: boolean;
  /** A load error: shown with a retry button when onRetry is given. */
  error?: string | null;
  onRetry?: () => void;
  /** What to show once loaded. */
  children?: ReactNode;
  /** The spinner's text. */
  label?: string;
}

/** A spinner while loading (role status), the error with a retry button (role alert), else the content. */
export function $Name({ loading, error, onRetry, children, label = 'Loading…' }: $Props) {
  if (loading) {
    return (
      <div role="status" aria-live="polite" className="loading">
        <span className="spinner" aria-hidden="true" />
        {label}
      </div>
    );
  }
  if (error) {
    return (
      <div role="alert" className="error">
        <p>{error}</p>
        {onRetry ? (
          <button type="button" onClick={onRetry}>
            Try again
          </button>
        ) : null}
      </div>
    );
  }
  return <>{children}</>;
}
`;

const status: Recipe = {
  id: 'loading-error-state',
  kinds: ['component'],
  fields: 'collections',
  summary: 'a spinner while loading, the error with a retry button, else the content',
  match: (d) =>
    hasWord(d, /^(spinner|loader|loading|skeleton)$/) ||
    (hasWord(d, /^(error|errors)$/) && hasWord(d, /^(state|states|message|boundary|retry|banner|alert)$/)),
  vocabulary:
    /^(spinner|loader|loading|load|loads|skeleton|error|errors|button|state|states|message|messages|retry|try|again|banner|alert|shows?|displays?|wraps?|wrapper|content|children|while|fails?|failed|status|indicator|else|otherwise|data|fetching)$/,
  build: (d, language) =>
    component(
      componentName(d, 'LoadingState', /^(spinner|loader|state|status)$/),
      STATUS_TEMPLATE,
      language,
      {},
    ),
};

const COUNTER_TEMPLATE = String.raw`import { useState } from 'react';

export interface $Props {
  /** The first value (default 0). */
  initial?: number;
  /** How much a click adds or takes away (default 1). */
  step?: number;
  min?: number;
  max?: number;
  /** Called with every new value. */
  onChange?: (value: number) => void;
}

/** A counter: the value between a decrement and an increment button, kept between min and max. */
export function $Name({ initial = 0, step = 1, min = -Infinity, max = Infinity, onChange }: $Props) {
  const [count, setCount] = useState(initial);
  const change = (next: number) => {
    const value = Math.min(Math.max(next, min), max);
    setCount(value);
    onChange?.(value);
  };
  return (
    <div className="counter">
      <button type="button" aria-label="Decrement" disabled={count - step < min} onClick={() => change(count - step)}>
        −
      </button>
      <output aria-live="polite" aria-label="Count">
        {count}
      </output>
      <button type="button" aria-label="Increment" disabled={count + step > max} onClick={() => change(count + step)}>
        +
      </button>
    </div>
  );
}
`;

const counter: Recipe = {
  id: 'counter',
  kinds: ['component'],
  fields: 'collections',
  summary: 'a counter with increment and decrement buttons, kept between min and max',
  match: (d) => hasWord(d, /^(counter|counters|stepper)$/),
  vocabulary:
    /^(counter|counters|stepper|count|increment|increments|incrementing|decrement|decrements|decrementing|plus|minus|buttons?|step|min|max|minimum|maximum|initial|start|starting|up|down|clicks?|shows?|displays?|current)$/,
  build: (d, language) =>
    component(componentName(d, 'Counter', /^(counter|stepper)$/), COUNTER_TEMPLATE, language, {}),
};

/** Tables before forms ("a searchable table" is a table), forms before lists. */
export const COMPONENT_RECIPES: readonly Recipe[] = [table, form, modal, tabs, list, status, counter];
