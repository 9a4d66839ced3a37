import { describe, expect, it } from 'vitest';
import { childObject, findProp, scanObjects, stringProp } from './config-text.ts';

describe('scanObjects', () => {
  it('finds plain-string properties of every object literal, outermost first', () => {
    const objects = scanObjects(
      `export default defineConfig({ base: '/app/', build: { outDir: "out", 'assetsDir': \`static\` } })`,
    );
    expect(stringProp(objects[0], 'base')).toBe('/app/');
    expect(stringProp(childObject(objects[0], 'build'), 'outDir')).toBe('out');
    expect(stringProp(childObject(objects[0], 'build'), 'assetsDir')).toBe('static');
  });

  it('marks computed values as computed instead of guessing', () => {
    const [root] = scanObjects(
      "export default { a: prod ? 'x' : 'y', b: `dist-${mode}`, c: path.join('a', 'b'), d: 'ok' + suffix, e: ENV.OUT }",
    );
    for (const key of ['a', 'b', 'c', 'd', 'e']) expect(root?.props.get(key)).toEqual({ kind: 'computed' });
  });

  it('ignores comments and is not derailed by braces or quotes inside strings and regexes', () => {
    const objects = scanObjects(`
      // output: 'commented'
      const re = /['"{]+/g; const s = "}{'";
      /* { output: 'block-comment' } */
      module.exports = { match: /[}]/, output: 'export', text: 'it\\'s {fine}' };
    `);
    const found = findProp(objects, 'output');
    expect(found?.value).toEqual({ kind: 'string', value: 'export' });
    expect(stringProp(found?.owner, 'text')).toBe("it's {fine}");
  });

  it('collects objects passed to calls inside property values', () => {
    const objects = scanObjects(
      "export default { kit: { adapter: adapter({ pages: 'public', precompress: false }) } }",
    );
    expect(stringProp(findProp(objects, 'pages')?.owner, 'pages')).toBe('public');
  });

  it('reads JSON with comments (angular.json)', () => {
    const [root] = scanObjects(
      '{\n  // comment\n  "projects": { "app": { "projectType": "application" } }\n}',
    );
    expect(stringProp(childObject(childObject(root, 'projects'), 'app'), 'projectType')).toBe('application');
  });

  it('survives unbalanced or hostile text', () => {
    expect(() => scanObjects('export default { a: ) ] }, { b: "x"')).not.toThrow();
    expect(() => scanObjects('{'.repeat(500) + '}'.repeat(10))).not.toThrow();
    expect(scanObjects('`unterminated ${ {')).toBeInstanceOf(Array);
  });
});
