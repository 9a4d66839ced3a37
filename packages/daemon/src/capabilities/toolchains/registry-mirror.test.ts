import { describe, expect, it } from 'vitest';
import { mirrorUrls, rewriteMirrorUrls } from './registry-mirror.ts';

const NPM = 'https://registry.npmjs.org/';

describe('lockfiles resolved against a registry mirror', () => {
  const packageLock = JSON.stringify({
    packages: {
      'node_modules/is-odd': { resolved: 'https://registry.npmmirror.com/is-odd/-/is-odd-3.0.1.tgz' },
      'node_modules/@babel/core': {
        resolved: 'https://registry.npmmirror.com/@babel/core/-/core-7.26.0.tgz',
      },
      'node_modules/left-pad': { resolved: 'https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz' },
      'node_modules/xlsx': { resolved: 'https://cdn.sheetjs.com/xlsx-0.20.3/xlsx-0.20.3.tgz' },
    },
  });

  it('finds the mirror hosts and leaves the npm registry and non-registry tarballs alone', () => {
    expect(mirrorUrls(packageLock, NPM)).toEqual({
      hosts: ['registry.npmmirror.com'],
      count: 2,
      atRoot: true,
    });
    const { text, count } = rewriteMirrorUrls(packageLock, ['registry.npmmirror.com'], NPM);
    expect(count).toBe(2);
    expect(text).toContain('"https://registry.npmjs.org/is-odd/-/is-odd-3.0.1.tgz"');
    expect(text).toContain('"https://registry.npmjs.org/@babel/core/-/core-7.26.0.tgz"');
    expect(text).toContain('https://cdn.sheetjs.com/xlsx-0.20.3/xlsx-0.20.3.tgz');
    expect(mirrorUrls(text, NPM).hosts).toEqual([]);
  });

  it("strips a company registry's path prefix and keeps yarn.lock's #hash and bun.lock's shape", () => {
    const yarnLock = [
      'is-odd@^3.0.1:',
      '  version "3.0.1"',
      '  resolved "https://artifactory.acme.test/artifactory/api/npm/npm-remote/is-odd/-/is-odd-3.0.1.tgz#65101baf3727d728b66fa62f50cda7f2d3989601"',
      '',
    ].join('\n');
    expect(mirrorUrls(yarnLock, NPM)).toMatchObject({ hosts: ['artifactory.acme.test'], atRoot: false });
    expect(
      rewriteMirrorUrls(yarnLock, ['artifactory.acme.test'], 'https://registry.npmjs.org').text,
    ).toContain(
      'resolved "https://registry.npmjs.org/is-odd/-/is-odd-3.0.1.tgz#65101baf3727d728b66fa62f50cda7f2d3989601"',
    );
    const bunLock =
      '"packages": {\n    "@sindresorhus/is": ["@sindresorhus/is@4.6.0", "http://127.0.0.1:4873/mirror/@sindresorhus/is/-/is-4.6.0.tgz", {}, "sha512-x"],\n';
    expect(rewriteMirrorUrls(bunLock, ['127.0.0.1:4873'], NPM).text).toBe(
      '"packages": {\n    "@sindresorhus/is": ["@sindresorhus/is@4.6.0", "https://registry.npmjs.org/@sindresorhus/is/-/is-4.6.0.tgz", {}, "sha512-x"],\n',
    );
  });

  it('a lockfile on the registry Forge reaches (a company one included) has no mirror', () => {
    const lock = '  resolved "https://npm.acme.test/is-odd/-/is-odd-3.0.1.tgz#abc"\n';
    expect(mirrorUrls(lock, 'https://npm.acme.test/').hosts).toEqual([]);
  });
});
