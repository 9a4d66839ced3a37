import { describe, expect, it } from 'vitest';
import { detectBlueprint } from './detect-blueprint.ts';
import { parseNetlifyToml } from './site-rules.ts';
import { decision, useProjects } from '../../../test/support/detect-project.ts';

const project = useProjects();

const NETLIFY = `[build]
  command = "npm run docs:build"
  publish = "docs/.vitepress/dist"

[[redirects]]
  from = "/latest/*"
  to = "/:splat"
  status = 301

[[redirects]]
  from = "/search"
  to = "/find"
  query = { q = ":q" }
  status = 302
  force = true

[[redirects]]
  from = "/api/*"
  to = "https://api.example.com/:splat"
  status = 200

[[redirects]]
  from = "/fr/*"
  to = "/fr/index.html"
  status = 200
  conditions = { Language = ["fr"] }
`;

describe("netlify.toml's [[redirects]]", () => {
  it('reads the rules that stay on the site and says why it leaves out the others', () => {
    const parsed = parseNetlifyToml(NETLIFY, 'netlify.toml');
    if ('error' in parsed) throw new Error(parsed.error);
    expect(parsed.rules).toEqual([
      expect.objectContaining({ from: '/latest/*', to: '/:splat', status: 301, force: false }),
      expect.objectContaining({ from: '/search', to: '/find', query: { q: ':q' }, status: 302, force: true }),
    ]);
    expect(parsed.ignored).toEqual([
      expect.objectContaining({
        source: 'netlify.toml redirects[2]',
        why: expect.stringContaining('proxies'),
      }),
      expect.objectContaining({
        source: 'netlify.toml redirects[3]',
        why: expect.stringContaining('conditions'),
      }),
    ]);
  });

  it('a broken netlify.toml is an error to report, not a crash', () => {
    expect(parseNetlifyToml('[[redirects]\nfrom = ', 'netlify.toml')).toEqual({
      error: expect.stringContaining('not valid TOML'),
    });
  });

  it('puts them in the plan after the other rules, and a catch-all rewrite to /index.html makes a SPA', async () => {
    const bp = await detectBlueprint(
      await project({
        'package.json': {
          name: 'site',
          private: true,
          scripts: { build: 'vitepress build docs' },
          devDependencies: { vitepress: '^1.6.0' },
        },
        'docs/index.md': '# Home\n',
        'netlify.toml': `${NETLIFY}\n[[redirects]]\n  from = "/*"\n  to = "/index.html"\n  status = 200\n`,
      }),
    );
    expect(bp.site?.rules.map((r) => r.from)).toEqual(['/latest/*', '/search', '/*']);
    expect(bp.site?.spa).toBe(true);
    expect(decision(bp, 'spa')).toMatchObject({ value: 'true', file: 'netlify.toml' });
    expect(bp.decisions.filter((d) => d.field === 'siteRule')).toHaveLength(2);
  });
});
