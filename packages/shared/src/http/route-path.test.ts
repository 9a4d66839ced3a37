import { describe, expect, it } from 'vitest';
import { buildPath, withQuery } from './route-path.ts';
import { routes } from './routes.ts';

describe('a route URL', () => {
  it('fills path parameters URI-encoded', () => {
    expect(buildPath(routes.buildLogs.path, { id: 'b 1/?' })).toBe('/api/builds/b%201%2F%3F/logs');
    expect(buildPath(routes.projectBlueprint.path, { name: 'ünï' })).toBe(
      '/api/projects/%C3%BCn%C3%AF/blueprint',
    );
  });

  it('refuses a missing path parameter', () => {
    expect(() => buildPath(routes.build.path, {})).toThrow('Missing path parameter "id" for /api/builds/:id');
  });

  it('writes the query without its undefined and null values, and no "?" when nothing is left', () => {
    expect(withQuery('/api/builds', { project: 'my app&co', limit: 5 })).toBe(
      '/api/builds?project=my+app%26co&limit=5',
    );
    expect(withQuery('/api/builds', { project: undefined, limit: null })).toBe('/api/builds');
    expect(withQuery('/api/builds')).toBe('/api/builds');
  });
});
