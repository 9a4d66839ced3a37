import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** The modules a module imports at run time (`import type` and `export type` are erased). */
function runtimeImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)'/gm)) {
    if (!m[1]) specifiers.push(m[2]!);
  }
  return specifiers;
}

/** Every module reached at run time from `entry`, and the bare packages among them. */
function reach(entry: string): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    for (const spec of runtimeImports(file)) {
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { modules, packages };
}

describe('@forge/shared/schema-free', () => {
  it('reaches no zod at run time, through any module', () => {
    const { modules, packages } = reach(path.join(SRC, 'schema-free.ts'));
    expect(modules.size).toBeGreaterThan(20);
    expect([...packages]).toEqual([]);
  });

  it('the package root still reaches zod (the check can fail)', () => {
    expect(reach(path.join(SRC, 'index.ts')).packages).toContain('zod');
  });
});
