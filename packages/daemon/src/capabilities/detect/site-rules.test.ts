import { describe, expect, it } from 'vitest';
import { isSpaFallback, parseRedirects, parseVercelJson, vercelPattern } from './site-rules.ts';

describe("Netlify's _redirects", () => {
  it('reads redirects, rewrites, forced rules, placeholders, splats and query parameters', () => {
    const { rules, ignored } = parseRedirects(
      [
        '# Redirects from what a site used to be',
        '/home              /                301',
        '/blog/:year/:slug  /posts/:slug     302   # inline comment',
        '/news/*            /blog/:splat',
        '/app/*             /app/index.html  200!',
        '/store  id=:id     /products/:id    301',
        '/*                 /index.html      200',
        '',
      ].join('\n'),
      'public/_redirects',
    );
    expect(ignored).toEqual([]);
    expect(rules).toEqual([
      expect.objectContaining({
        from: '/home',
        to: '/',
        status: 301,
        force: false,
        source: 'public/_redirects:2',
      }),
      expect.objectContaining({ from: '/blog/:year/:slug', to: '/posts/:slug', status: 302 }),
      expect.objectContaining({ from: '/news/*', to: '/blog/:splat', status: 301 }),
      expect.objectContaining({ from: '/app/*', to: '/app/index.html', status: 200, force: true }),
      expect.objectContaining({ from: '/store', query: { id: ':id' }, to: '/products/:id' }),
      expect.objectContaining({ from: '/*', to: '/index.html', status: 200 }),
    ]);
    expect(rules.filter(isSpaFallback).map((r) => r.source)).toEqual(['public/_redirects:7']);
  });

  it.each([
    ['/api/*  https://api.example.com/:splat  200', 'proxies to api.example.com'],
    ['/docs  https://docs.example.com  301', 'redirects to docs.example.com, another host'],
    ['https://old.example.com/*  /:splat  301!', 'another host'],
    ['/fn/*  /.netlify/functions/:splat  200', 'Netlify function'],
    ['/  /fr  302  Language=fr', 'Language'],
    ['/  /us  302  Country=us,ca', 'Country'],
    ['/admin/*  /admin/:splat  200!  Role=admin', 'Role'],
    ['/a/*/b  /c  301', 'only at the end'],
    ['/blog-:id  /posts/:id  301', 'pattern Forge does not read'],
    ['/x  //evil.example  301', 'not a path of the site'],
    ['/x  /ok  999', 'status 999'],
    ['/lonely', 'no target'],
  ])('ignores "%s", saying why', (line, why) => {
    const { rules, ignored } = parseRedirects(line, '_redirects');
    expect(rules).toEqual([]);
    expect(ignored).toEqual([{ source: '_redirects:1', rule: line, why: expect.stringContaining(why) }]);
  });
});

describe('vercel.json', () => {
  it.each([
    ['/about', { from: '/about', except: [] }],
    ['/blog/:slug', { from: '/blog/:slug', except: [] }],
    ['/:path*', { from: '/:path*', except: [] }],
    ['/docs/:path+', { from: '/docs/:path+', except: [] }],
    ['/(.*)', { from: '/:1*', except: [] }],
    ['/:path(.*)', { from: '/:path*', except: [] }],
    ['/((?!api/).*)', { from: '/:1*', except: ['api/'] }],
    [
      '/((?!api|_next/static|favicon.ico).*)',
      { from: '/:1*', except: ['api', '_next/static', 'favicon.ico'] },
    ],
    ['/', { from: '/', except: [] }],
  ])('reads the source "%s"', (source, expected) => {
    expect(vercelPattern(source)).toEqual(expected);
  });

  it.each(['/:path?', '/blog/:slug(\\d+)', '/(.*)/edit', '/((?!.*\\.).*)', 'about'])(
    'does not read "%s"',
    (source) => expect(vercelPattern(source)).toBeNull(),
  );

  it('reads redirects (before files), rewrites (after), cleanUrls, trailingSlash; lists what needs Vercel', () => {
    const parsed = parseVercelJson(
      JSON.stringify({
        cleanUrls: true,
        trailingSlash: false,
        redirects: [
          { source: '/old', destination: '/new' },
          { source: '/tmp', destination: '/new', permanent: false },
          { source: '/gone/:x', destination: '/new/:x', statusCode: 301 },
          { source: '/out', destination: 'https://example.com/' },
        ],
        rewrites: [
          { source: '/api/:path*', destination: 'https://api.example.com/:path*' },
          { source: '/app/:path*', destination: '/app/index.html', has: [{ type: 'cookie', key: 'x' }] },
          { source: '/(.*)', destination: '/index.html' },
        ],
        headers: [{ source: '/(.*)', headers: [] }],
      }),
      'vercel.json',
    );
    if ('error' in parsed) throw new Error(parsed.error);
    expect(parsed).toMatchObject({ cleanUrls: true, trailingSlash: false });
    expect(parsed.rules).toEqual([
      expect.objectContaining({
        from: '/old',
        to: '/new',
        status: 308,
        force: true,
        source: 'vercel.json redirects[0]',
      }),
      expect.objectContaining({ from: '/tmp', status: 307, force: true }),
      expect.objectContaining({ from: '/gone/:x', to: '/new/:x', status: 301 }),
      expect.objectContaining({ from: '/:1*', to: '/index.html', status: 200, force: false }),
    ]);
    expect(parsed.rules.some(isSpaFallback)).toBe(true);
    expect(parsed.ignored.map((i) => [i.source, i.why])).toEqual([
      ['vercel.json redirects[3]', expect.stringContaining('another host')],
      ['vercel.json rewrites[0]', expect.stringContaining('proxies to api.example.com')],
      ['vercel.json rewrites[1]', expect.stringContaining('"has"')],
      ['vercel.json headers', expect.stringContaining('Vercel itself')],
    ]);
  });

  it('reads the legacy catch-all route of a single-page app, and says when the file is not JSON', () => {
    const legacy = parseVercelJson(
      JSON.stringify({ routes: [{ handle: 'filesystem' }, { src: '/(.*)', dest: '/index.html' }] }),
      'vercel.json',
    );
    if ('error' in legacy) throw new Error(legacy.error);
    expect(legacy.rules.some(isSpaFallback)).toBe(true);
    expect(parseVercelJson('{ nope', 'apps/web/vercel.json')).toEqual({
      error: expect.stringContaining('apps/web/vercel.json is not valid JSON'),
    });
  });
});
