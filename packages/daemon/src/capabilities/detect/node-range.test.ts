import type { NodeCandidate } from '@forge/shared';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { combineNode, constraintRange, intersect, ltsMajor, overlaps, pinRange } from './node-range.ts';

const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe('reading what a project says about its Node', () => {
  it.each<[string, string | null]>([
    ['>=24.16', '>=24.16.0'],
    ['^20.19.0 || >=22.12.0', '>=20.19.0 <21.0.0-0||>=22.12.0'],
    ['18.x', '>=18.0.0 <19.0.0-0'],
    ['v22', '>=22.0.0 <23.0.0-0'],
    ['*', '*'],
    ['not a range', null],
  ])('constraint %s reads as %s', (text, range) => {
    expect(constraintRange(text)).toBe(range);
  });

  it.each<[string, string | null]>([
    // A pin names a major: any release of it at or above what is written serves.
    ['20.11.1', '>=20.11.1 <21.0.0-0'],
    ['v20.11.1', '>=20.11.1 <21.0.0-0'],
    ['20.11', '>=20.11.0 <21.0.0-0'],
    ['20', '>=20.0.0 <21.0.0-0'],
    ['lts/iron', '>=20.0.0 <21.0.0-0'],
    ['lts/Jod', '>=22.0.0 <23.0.0-0'],
    ['node', '*'],
    ['system', '*'],
    ['iojs', null],
    ['lts/unknown', null],
    ['>=18 <21', '>=18.0.0 <21.0.0-0'],
  ])('pin %s reads as %s', (text, range) => {
    expect(pinRange(text).range).toBe(range);
  });

  it('a pin of 20.11.1 accepts 20.20.2, not 21 or 20.10', () => {
    const { range } = pinRange('20.11.1');
    expect(semver.satisfies('20.20.2', range!)).toBe(true);
    expect(semver.satisfies('21.0.0', range!)).toBe(false);
    expect(semver.satisfies('20.10.0', range!)).toBe(false);
  });

  it('lts/* is the newest line that is LTS on the day, lts/-1 the one before', () => {
    expect(ltsMajor('lts/*', day('2026-11-28'))).toBe(26);
    expect(ltsMajor('lts/*', day('2026-10-01'))).toBe(24);
    expect(ltsMajor('lts/-1', day('2026-11-28'))).toBe(24);
    expect(ltsMajor('lts/hydrogen')).toBe(18);
    expect(ltsMajor('lts/nope')).toBeNull();
  });

  it('intersects ranges, ORs included, and tells when nothing satisfies both', () => {
    const both = intersect('^18.17.0 || >=20.5.0', '>=20.11.1 <21.0.0-0');
    expect(semver.satisfies('20.20.2', both)).toBe(true);
    expect(semver.satisfies('18.20.8', both)).toBe(false);
    expect(semver.satisfies('22.0.0', both)).toBe(false);
    expect(intersect('*', '>=22')).toBe('>=22');
    expect(overlaps('>=22', '>=20.11.1 <21.0.0-0')).toBe(false);
    expect(overlaps('>=22', '^22.3')).toBe(true);
  });
});

const candidate = (
  c: Partial<NodeCandidate> & Pick<NodeCandidate, 'source' | 'value' | 'role'>,
): NodeCandidate => ({
  file: c.source.startsWith('.') ? c.source : 'package.json',
  range: c.role === 'pin' ? pinRange(c.value).range : constraintRange(c.value),
  used: false,
  note: null,
  ...c,
});

describe('combining the candidates', () => {
  it('narrows the constraint by the pin when it fits inside', () => {
    const { range, decisive, candidates } = combineNode([
      candidate({ source: 'engines.node', value: '>=20', role: 'constraint' }),
      candidate({ source: '.nvmrc', value: '22.3.0', role: 'pin' }),
    ]);
    expect(decisive?.source).toBe('engines.node');
    expect(candidates.map((c) => c.used)).toEqual([true, true]);
    expect(semver.satisfies('22.23.5', range!)).toBe(true);
    expect(semver.satisfies('20.20.2', range!)).toBe(false);
  });

  it('drops a pin outside the constraint: the constraint wins, and says so', () => {
    const { range, candidates } = combineNode([
      candidate({ source: 'engines.node', value: '>=24.16', role: 'constraint' }),
      candidate({ source: '.nvmrc', value: '20', role: 'pin' }),
    ]);
    expect(range).toBe('>=24.16.0');
    expect(candidates[1]).toMatchObject({
      used: false,
      note: 'outside engines.node in package.json (>=24.16): the constraint wins',
    });
  });

  it('takes the first pin and notes the others', () => {
    const { range, candidates } = combineNode([
      candidate({ source: 'volta.node', value: '22.11.0', role: 'pin' }),
      candidate({ source: '.nvmrc', value: '18', role: 'pin' }),
    ]);
    expect(range).toBe('>=22.11.0 <23.0.0-0');
    expect(candidates[1]).toMatchObject({ used: false, note: 'volta.node in package.json comes first' });
  });

  it("joins the package manager's need, or names the conflict when the constraint excludes it", () => {
    const ok = combineNode([
      candidate({ source: 'engines.node', value: '>=20', role: 'constraint' }),
      candidate({ source: 'pnpm 11', value: '>=22.13', role: 'tool' }),
    ]);
    expect(semver.satisfies('22.13.0', ok.range!)).toBe(true);
    expect(semver.satisfies('20.20.2', ok.range!)).toBe(false);
    const clash = combineNode([
      candidate({ source: 'engines.node', value: '^20', role: 'constraint' }),
      candidate({ source: 'pnpm 11', value: '>=22.13', role: 'tool' }),
    ]);
    expect(clash.conflict).toBe(
      'pnpm 11 needs Node >=22.13, which engines.node in package.json (^20) excludes',
    );
  });

  it('keeps the nearest of two constraints that exclude each other', () => {
    const { range, candidates } = combineNode([
      candidate({ source: 'engines.node', value: '>=22', role: 'constraint', file: 'apps/web/package.json' }),
      candidate({ source: 'engines.node', value: '^18', role: 'constraint' }),
    ]);
    expect(range).toBe('>=22.0.0');
    expect(candidates[1]!.note).toContain('the nearest one wins');
  });
});
