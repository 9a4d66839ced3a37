import { describe, expect, it } from 'vitest';
import { detectBlueprint } from './detect-blueprint.ts';
import { firebasePattern, parseFirebaseJson } from './site-rules.ts';
import { decision, useProjects } from '../../../test/support/detect-project.ts';

const project = useProjects();

const FIREBASE = {
  hosting: {
    public: 'docs/.vitepress/dist',
    cleanUrls: true,
    redirects: [
      { source: '/latest', destination: '/reference/latest/', type: 301 },
      { source: '/blog/:post*', destination: '/posts/:post', type: 302 },
      { source: '/dapis', destination: 'https://docs.example.com/dapis/', type: 301 },
      { regex: '^/x/(\\d+)$', destination: '/y/:1', type: 301 },
    ],
    rewrites: [
      { source: '/api/**', function: 'api' },
      { source: '/app/**', destination: '/app/index.html' },
    ],
  },
};

describe("firebase.json's hosting rules", () => {
  it("turns its globs into the preview's patterns, or says it cannot", () => {
    expect(firebasePattern('/blog/**')).toBe('/blog/*');
    expect(firebasePattern('/docs/*/intro')).toBe('/docs/:w1/intro');
    expect(firebasePattern('/post/:id')).toBe('/post/:id');
    expect(firebasePattern('/**/x')).toBeNull();
    expect(firebasePattern('/*.html')).toBeNull();
  });

  it('applies redirects before files and rewrites after them; functions, other hosts and regex are listed', () => {
    const parsed = parseFirebaseJson(JSON.stringify(FIREBASE), 'firebase.json', 'docs/.vitepress/dist');
    if ('error' in parsed) throw new Error(parsed.error);
    expect(parsed.cleanUrls).toBe(true);
    expect(parsed.rules).toEqual([
      expect.objectContaining({ from: '/latest', to: '/reference/latest/', status: 301, force: true }),
      expect.objectContaining({ from: '/blog/:post*', to: '/posts/:post', status: 302, force: true }),
      expect.objectContaining({ from: '/app/*', to: '/app/index.html', status: 200, force: false }),
    ]);
    expect(parsed.ignored.map((i) => i.source)).toEqual([
      'firebase.json hosting.redirects[2]',
      'firebase.json hosting.redirects[3]',
      'firebase.json hosting.rewrites[0]',
    ]);
  });

  it('of several sites, reads the one that serves the output', () => {
    const sites = { hosting: [{ public: 'admin/dist' }, { ...FIREBASE.hosting, public: 'site/dist' }] };
    const parsed = parseFirebaseJson(JSON.stringify(sites), 'firebase.json', 'site/dist');
    if ('error' in parsed) throw new Error(parsed.error);
    expect(parsed.rules).toHaveLength(3);
  });

  it('puts them in the plan, and a catch-all rewrite to /index.html makes a single-page app', async () => {
    const bp = await detectBlueprint(
      await project({
        'package.json': {
          name: 'app',
          private: true,
          scripts: { build: 'vite build' },
          devDependencies: { vite: '^7.0.0' },
        },
        'index.html': '<div id=app></div>',
        'about.html': '<h1>About</h1>',
        'firebase.json': {
          hosting: {
            public: 'dist',
            redirects: [{ source: '/old', destination: '/', type: 301 }],
            rewrites: [{ source: '**', destination: '/index.html' }],
          },
        },
      }),
    );
    expect(bp.site?.rules.map((r) => `${r.from} ${r.to} ${r.status}`)).toEqual([
      '/old / 301',
      '/* /index.html 200',
    ]);
    expect(bp.site?.spa).toBe(true);
    expect(decision(bp, 'spa')).toMatchObject({ value: 'true', file: 'firebase.json' });
  });
});
