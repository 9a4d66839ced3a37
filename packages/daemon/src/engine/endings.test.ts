import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..');

/** Production files of the daemon, relative to src/. */
function sources(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path.relative(SRC, full)] : [];
  });
}

describe('builds end in one place', () => {
  it('no file but engine/endings.ts moves a build to a final state', () => {
    // A final move is `end(<status>)`, `succeed(...)` or `to(endState(...))` on a BuildRun.
    const finalMove =
      /\.end\(\s*['"](succeeded|failed|timed-out|cancelled|interrupted)['"]|\.succeed\(|\.to\(\s*endState\(/;
    const movers = sources().filter((file) => finalMove.test(fs.readFileSync(path.join(SRC, file), 'utf8')));
    expect(movers.sort()).toEqual(['engine/build-run.ts', 'engine/endings.ts']);
  });
});
