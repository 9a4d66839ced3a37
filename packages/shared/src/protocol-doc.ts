import { z } from 'zod';
import { routes, type RouteContract } from './http/routes.ts';
import { ClientMessage, ServerMessage, WS_PATH } from './ws/events.ts';
import { ERROR_CATALOGUE, ERROR_CODES } from './errors.ts';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  additionalProperties?: JsonSchema | boolean;
};

/** Compact TypeScript-like rendering of a JSON schema, for humans. */
function render(s: JsonSchema | undefined): string {
  if (!s) return 'unknown';
  if (s.$ref) return s.$ref.replace(/^#\/\$defs\//, '');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return alts.map(render).join(' | ');
  if (Array.isArray(s.type)) return s.type.join(' | ');
  switch (s.type) {
    case 'object': {
      const props = Object.entries(s.properties ?? {});
      if (props.length === 0) return 'object';
      const req = new Set(s.required ?? []);
      return `{ ${props.map(([k, v]) => `${k}${req.has(k) ? '' : '?'}: ${render(v)}`).join('; ')} }`;
    }
    case 'array':
      return `${wrap(render(s.items))}[]`;
    case 'integer':
      return 'integer';
    default:
      return s.type ?? 'unknown';
  }
}
const wrap = (t: string) => (t.includes('|') ? `(${t})` : t);

const schemaText = (schema: z.ZodType, io: 'input' | 'output'): string => {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  const main = render(json);
  const defs = Object.entries(json.$defs ?? {}).map(([k, v]) => `${k} = ${render(v)}`);
  return defs.length ? `${main}  where ${defs.join('; ')}` : main;
};

const cell = (t: string) => `\`${t.replace(/\|/g, '\\|')}\``;

function routeRow(name: string, r: RouteContract): string {
  const input: string[] = [];
  if (r.params) input.push(`params ${cell(schemaText(r.params, 'input'))}`);
  if (r.query) input.push(`query ${cell(schemaText(r.query, 'input'))}`);
  if (r.body) input.push(`body ${cell(schemaText(r.body, 'input'))}`);
  if (r.multipart) input.push(`multipart field \`${r.multipart.field}\``);
  const answer = r.response === 'binary' ? 'binary stream' : cell(schemaText(r.response, 'output'));
  return `| \`${r.method} ${r.path}\` | \`${name}\` | ${input.join('<br>') || '—'} | ${answer} | ${r.summary} |`;
}

/** docs/protocol.md, generated from the shared schemas (kept in step by a test). */
export function renderProtocolDoc(): string {
  const lines: string[] = [
    '# Forge protocol',
    '',
    '<!-- Generated from packages/shared by `pnpm docs:protocol`; a test fails when it is out of date. -->',
    '',
    'Every route and WebSocket message the daemon speaks, generated from the zod schemas in',
    '`packages/shared`. Types are written TypeScript-style; `?` marks an optional field.',
    '',
    '## Errors',
    '',
    'Every failure answers `{ error: string, code: string, hint?: string, details?: unknown }` with the status below.',
    '',
    '| code | status | message |',
    '|---|---|---|',
    ...ERROR_CODES.map((c) => `| \`${c}\` | ${ERROR_CATALOGUE[c].status} | ${ERROR_CATALOGUE[c].message} |`),
    '',
    '## HTTP routes',
    '',
    '| route | client name | input | answer | what it does |',
    '|---|---|---|---|---|',
    ...Object.entries(routes).map(([name, r]) => routeRow(name, r)),
    '',
    `## WebSocket \`${WS_PATH}\``,
    '',
    'Server → client (one JSON object per frame; clients drop types they do not know):',
    '',
    '| type | fields |',
    '|---|---|',
    ...ServerMessage.options.map((o) => `| \`${o.shape.type.value}\` | ${cell(schemaText(o, 'output'))} |`),
    '',
    'Client → server (anything else is ignored):',
    '',
    '| type | fields |',
    '|---|---|',
    ...ClientMessage.options.map((o) => `| \`${o.shape.type.value}\` | ${cell(schemaText(o, 'input'))} |`),
    '',
  ];
  return lines.join('\n');
}
