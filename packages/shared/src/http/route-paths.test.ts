import { describe, expect, it } from 'vitest';
import { ROUTE_PATHS } from './route-paths.ts';
import { routes } from './routes.ts';

describe('ROUTE_PATHS', () => {
  it('names every route of the table with its method, path and upload field, and nothing else', () => {
    const fromTable = Object.fromEntries(
      Object.entries(routes).map(([name, route]) => [
        name,
        {
          method: route.method,
          path: route.path,
          ...('multipart' in route ? { multipart: route.multipart } : {}),
        },
      ]),
    );
    expect(ROUTE_PATHS).toEqual(fromTable);
  });
});
