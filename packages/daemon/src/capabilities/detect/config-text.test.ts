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
      "export default { a: prod ? 'x' : 'y', b: `dist-${mode}`, c: path.join(base, 'b'), d: 'ok' + suffix, e: ENV.OUT, f: path.resolve(__dirname, 'a') + '/b', g: resolve(__dirname, `out-${n}`) }",
    );
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) {
      expect(root?.props.get(key)).toEqual({ kind: 'computed' });
    }
  });

  it('reads path.resolve / path.join of __dirname, process.cwd() and literal folders', () => {
    const [root] = scanObjects(`module.exports = {
      a: path.resolve(__dirname, 'dist'),
      b: path.join(__dirname, "public", 'build'),
      c: resolve(import.meta.dirname, 'out',),
      d: path.resolve(process.cwd(), 'www'),
      e: path.resolve('site'),
      f: path.join('rel', 'dir'),
      g: path.resolve(__dirname, '/srv/www'),
      h: path.posix.join(__dirname, '../dist'),
    }`);
    const props = Object.fromEntries(root!.props);
    expect(props.a).toEqual({
      kind: 'path',
      from: 'config-dir',
      segments: ['dist'],
      text: "path.resolve(__dirname, 'dist')",
    });
    expect(props.b).toMatchObject({ from: 'config-dir', segments: ['public', 'build'] });
    expect(props.c).toMatchObject({
      from: 'config-dir',
      segments: ['out'],
      text: "resolve(import.meta.dirname, 'out')",
    });
    expect(props.d).toMatchObject({ from: 'cwd', segments: ['www'] });
    expect(props.e).toMatchObject({ from: 'cwd', segments: ['site'] });
    expect(props.f).toMatchObject({ from: 'relative', segments: ['rel', 'dir'] });
    expect(props.g).toMatchObject({ from: 'absolute', segments: ['/srv/www'] });
    expect(props.h).toMatchObject({ from: 'config-dir', segments: ['../dist'] });
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
