import { describe, expect, it } from 'vitest';
import { importsOf, loadTypeScript, packageOf } from './imports.ts';

describe('package names of specifiers', () => {
  it.each([
    ['lodash', 'lodash'],
    ['lodash/fp', 'lodash'],
    ['@scope/pkg/sub/path', '@scope/pkg'],
    ['react-dom/client', 'react-dom'],
    ['./App', null],
    ['../x', null],
    ['/abs/path', null],
    ['node:fs', null],
    ['fs', null],
    ['fs/promises', null],
    ['virtual:pwa-register', null],
    ['astro:content', null],
    ['https://esm.sh/react', null],
    ['~/components/x', null],
    ['#internal', null],
    ['$lib/utils', null],
    ['@/components/Button', null],
    ['', null],
  ])('%j → %j', (specifier, name) => {
    expect(packageOf(specifier)).toBe(name);
  });
});

describe('imports of a file', () => {
  it('finds every form of import with its line, whatever the JSX around it', async () => {
    const ts = await loadTypeScript();
    const source = [
      "import a from 'a';",
      'export { b } from "b";',
      "import type { C } from 'c';",
      "export type { D } from 'd';",
      "import type from 'e';",
      "const f = require('f');",
      "const g = () => import('g');",
      "import h = require('h');",
      "const el = <p>Don't {\"import x from 'no'\"}</p>;",
      "// import z from 'commented';",
      "import 'side-effect';",
    ].join('\n');
    const found = importsOf(ts, 'x.tsx', source).imports;
    expect(found.map((i) => [i.specifier, i.line, i.typeOnly])).toEqual([
      ['a', 1, false],
      ['b', 2, false],
      ['c', 3, true],
      ['d', 4, true],
      ['e', 5, false],
      ['f', 6, false],
      ['g', 7, false],
      ['h', 8, false],
      ['side-effect', 11, false],
    ]);
  });

  it('reads the <script> blocks of Vue and Svelte files, with lines in the file', async () => {
    const ts = await loadTypeScript();
    const vue =
      "<template>\n  <p>import nope from 'nope'</p>\n</template>\n<script>\nimport x from 'x';\n</script>\n<script setup lang=\"ts\">\nimport { y } from 'y';\n</script>";
    expect(importsOf(ts, 'A.vue', vue).imports.map((i) => [i.specifier, i.line])).toEqual([
      ['x', 5],
      ['y', 8],
    ]);
  });

  it('keeps the modules a declaration file declares', async () => {
    const ts = await loadTypeScript();
    const found = importsOf(ts, 'env.d.ts', "declare module 'virtual:icons' {}\ndeclare module '*.svg';");
    expect(found.ambientModules).toEqual(['virtual:icons', '*.svg']);
  });
});
