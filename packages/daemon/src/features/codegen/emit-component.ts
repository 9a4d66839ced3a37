import type { Field, Spec, TypeNode } from './grammar.ts';
import { kebabName, labelOf, pascalName, wordsOf } from './names.ts';
import {
  docBlock,
  docSentence,
  joinParts,
  quoteLiteral,
  refDeclarations,
  refsOf,
  renameRef,
  tsType,
  type Emitted,
  type Language,
} from './emit-common.ts';

/**
 * A React function component: a typed Props interface (TypeScript) or a JSDoc typedef
 * (JavaScript), and markup that shows each prop the way its type reads best — a heading for the
 * title or name, an image for an avatar or photo URL, links for URLs and emails, lists for arrays,
 * a definition list for the rest, and a button per callback.
 */

const TITLE_NAMES = /^(title|name|label|heading|displayName|fullName|username|userName)$/;
const IMAGE_WORDS = /^(avatar|image|img|photo|picture|thumbnail|logo|icon|cover|banner)$/;
/** Props React keeps for itself: they never reach the component, so they are renamed. */
const REACT_RESERVED: Record<string, string> = { key: 'itemKey', ref: 'refValue' };

const isImage = (f: Field): boolean =>
  (f.type.kind === 'url' || f.type.kind === 'string') && wordsOf(f.name).some((w) => IMAGE_WORDS.test(w));
const isTitle = (f: Field): boolean => f.type.kind === 'string' && TITLE_NAMES.test(f.name);

/** The component being written and its props type: a prop of that type renders the component again. */
interface Self {
  name: string;
  props: string;
}

/** A JSX expression that shows `expr` of type `type` inline. */
function inline(expr: string, type: TypeNode, self: Self): string {
  if (type.kind === 'ref' && type.name === self.props) return `<${self.name} {...${expr}} />`;
  switch (type.kind) {
    case 'boolean':
      return `{${expr} ? 'Yes' : 'No'}`;
    case 'date':
      return `{${expr}.toLocaleDateString()}`;
    case 'email':
      return `<a href={\`mailto:\${${expr}}\`}>{${expr}}</a>`;
    case 'url':
      return `<a href={${expr}}>{${expr}}</a>`;
    case 'record':
    case 'ref':
    case 'unknown':
    case 'array':
    case 'callback':
    case 'void':
      return `{JSON.stringify(${expr})}`;
    default:
      return `{${expr}}`;
  }
}

const KEYABLE = new Set(['string', 'number', 'uuid', 'email', 'url', 'enum']);

/** A block that shows a value: lists for arrays, preformatted JSON for objects, inline for the rest. */
function block(expr: string, type: TypeNode, indent: string, self: Self): string {
  if (type.kind === 'array') {
    const keyed = KEYABLE.has(type.of.kind);
    const params = keyed ? '(item)' : '(item, index)';
    const key = keyed ? 'item' : 'index';
    return [
      `${indent}<ul>`,
      `${indent}  {${expr}.map(${params} => (`,
      `${indent}    <li key={${key}}>${inline('item', type.of, self)}</li>`,
      `${indent}  ))}`,
      `${indent}</ul>`,
    ].join('\n');
  }
  if (type.kind === 'ref' && type.name === self.props) return `${indent}${inline(expr, type, self)}`;
  if (type.kind === 'record' || type.kind === 'ref' || type.kind === 'unknown') {
    return `${indent}<pre>{JSON.stringify(${expr}, null, 2)}</pre>`;
  }
  return `${indent}${inline(expr, type, self)}`;
}

/** Wrap markup so it only shows when an optional prop was given. */
function whenGiven(field: Field, local: string, markup: string, indent: string): string {
  if (!field.optional) return markup;
  const lines = markup.split('\n').map((l) => `  ${l}`);
  return [`${indent}{${local} !== undefined && (`, ...lines, `${indent})}`].join('\n');
}

/** A value of `type` for a callback argument no prop supplies. */
function placeholder(type: TypeNode): string {
  switch (type.kind) {
    case 'number':
      return '0';
    case 'boolean':
      return 'false';
    case 'date':
      return 'new Date()';
    case 'array':
      return '[]';
    case 'enum':
      return quoteLiteral(type.values[0] ?? '');
    case 'record':
    case 'ref':
      return '{}';
    case 'unknown':
    case 'void':
      return 'undefined';
    case 'node':
      return 'null';
    case 'callback':
      return '() => {}';
    default:
      return "''";
  }
}

export function emitComponent(spec: Spec, language: Language): Emitted {
  const words = wordsOf(spec.rawName);
  // "UserCardComponent" and "user card component" name the component UserCard.
  while (words.length > 1 && /^(component|widget)$/.test(words.at(-1)!)) words.pop();
  const name = pascalName(words.join(' '), 'MyComponent', 'View');
  const propsName = `${name}Props`;
  const className = kebabName(name);
  const ts = language === 'typescript';

  // A prop typed as the component itself means its props: <Tree> with children: Tree[].
  const fields = spec.fields.map((f) => ({
    ...f,
    name: REACT_RESERVED[f.name] ?? f.name,
    type: renameRef(f.type, name, propsName),
  }));
  const style = { date: 'Date', node: 'ReactNode' } as const;
  const refs = refsOf(fields.map((f) => f.type)).filter((r) => r !== propsName);
  const usesNode = fields.some((f) => /\bReactNode\b/.test(tsType(f.type, style)));

  const title = fields.find(isTitle);
  const image = fields.find(isImage);
  const callbacks = fields.filter((f) => f.type.kind === 'callback');
  const nodes = fields.filter((f) => f.type.kind === 'node');
  const rows = fields.filter(
    (f) => f !== title && f !== image && f.type.kind !== 'callback' && f.type.kind !== 'node',
  );

  const body: string[] = [];
  const heading = title ? `<h2>{${title.name}}</h2>` : `<h2>${labelOf(name)}</h2>`;
  if (image) {
    const alt = title && !title.optional ? `{${title.name}}` : `{${quoteLiteral(labelOf(image.name))}}`;
    body.push(whenGiven(image, image.name, `      <img src={${image.name}} alt=${alt} />`, '      '));
  }
  body.push(title ? whenGiven(title, title.name, `      ${heading}`, '      ') : `      ${heading}`);
  if (rows.length > 0) {
    const dl = rows.map((f) => {
      const shown = block(f.name, f.type, '          ', { name, props: propsName });
      const row = shown.includes('\n')
        ? [`        <dt>${labelOf(f.name)}</dt>`, '        <dd>', shown, '        </dd>']
        : [`        <dt>${labelOf(f.name)}</dt>`, `        <dd>${shown.trim()}</dd>`];
      const markup = f.optional
        ? ['        <>', ...row.map((l) => `  ${l}`), '        </>'].join('\n')
        : row.join('\n');
      return whenGiven(f, f.name, markup, '        ');
    });
    body.push(['      <dl>', ...dl, '      </dl>'].join('\n'));
  }
  for (const n of nodes)
    body.push(
      whenGiven(n, n.name, `      <div className="${className}__content">{${n.name}}</div>`, '      '),
    );
  if (callbacks.length > 0) {
    const buttons = callbacks.map((f) => {
      const cb = f.type as Extract<TypeNode, { kind: 'callback' }>;
      const label = labelOf(f.name.replace(/^on(?=[A-Z])/, ''));
      let handler: string;
      if (cb.params.length === 0) handler = f.name;
      else {
        // Arguments come from the props of the same name and type, else a neutral value.
        const required = cb.params.filter(
          (p, i) => !p.optional || cb.params.slice(i).some((q) => !q.optional),
        );
        const args = required.map((p) => {
          const prop = fields.find(
            (x) => x.name === p.name && !x.optional && tsType(x.type, style) === tsType(p.type, style),
          );
          return prop ? prop.name : placeholder(p.type);
        });
        handler = `() => ${f.name}${f.optional ? '?.' : ''}(${args.join(', ')})`;
      }
      return `        <button type="button" onClick={${handler}}>\n          ${label}\n        </button>`;
    });
    body.push([`      <div className="${className}__actions">`, ...buttons, '      </div>'].join('\n'));
  }

  const sentence = docSentence(spec.summary);
  const typeNote = ts ? `: ${propsName}` : '';
  let signature = `export function ${name}({ ${fields.map((f) => f.name).join(', ')} }${typeNote})`;
  if (fields.length === 0) signature = `export function ${name}()`;
  else if (signature.length > 100) {
    signature = `export function ${name}({\n${fields.map((f) => `  ${f.name},`).join('\n')}\n}${typeNote})`;
  }
  const componentDoc = ts
    ? docBlock([sentence || `${labelOf(name)}.`])
    : docBlock([
        sentence || `${labelOf(name)}.`,
        ...(fields.length > 0 ? ['', `@param {${propsName}} props`] : []),
      ]);
  const component = [
    componentDoc,
    `${signature} {`,
    '  return (',
    `    <section className="${className}">`,
    ...body,
    '    </section>',
    '  );',
    '}',
  ].join('\n');

  let props: string | null = null;
  if (fields.length > 0) {
    props = ts
      ? [
          docBlock([`What ${name} shows.`]),
          `export interface ${propsName} {`,
          ...fields.map((f) => `  ${f.name}${f.optional ? '?' : ''}: ${tsType(f.type, style)};`),
          '}',
        ].join('\n')
      : docBlock([
          `What ${name} shows.`,
          '',
          `@typedef {object} ${propsName}`,
          ...fields.map(
            (f) =>
              `@property {${tsType(f.type, style).replace(/\bReactNode\b/g, "import('react').ReactNode")}} ${f.optional ? `[${f.name}]` : f.name}`,
          ),
        ]);
  }

  const imports = ts && usesNode ? "import type { ReactNode } from 'react';" : null;
  return {
    name,
    fileName: `${name}.${ts ? 'tsx' : 'jsx'}`,
    code: joinParts([imports, ...refDeclarations(refs, language), props, component]),
  };
}
