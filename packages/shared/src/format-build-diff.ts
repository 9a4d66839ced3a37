import type { BuildDiff, ValueChange } from './domain/build-diff.ts';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const value = (v: string | null): string => (v === null || v === '' ? '(none)' : v);
const change = (c: ValueChange): string => `${c.name}: ${value(c.from)} → ${value(c.to)}`;

export interface BuildDiffTextOptions {
  /** Print each file's unified diff under its name (the CLI does; the brain and chat list names). */
  patches?: boolean;
}

/**
 * A build's comparison with its last green build as text: what the failure points at first, then the
 * source files, dependencies, toolchain, plan and environment names that changed. One wording for
 * `forge diff`, the brain and the Forge chat.
 */
export function buildDiffLines(diff: BuildDiff, options: BuildDiffTextOptions = {}): string[] {
  const lines: string[] = [diff.summary];
  for (const p of diff.pointsAt) lines.push(`  → ${p.reason}`);
  lines.push('');
  lines.push(
    `Build ${diff.buildId} (failed) compared with ${diff.greenBuildId}, the last green build of ${diff.projectName}.`,
  );

  const f = diff.files;
  const total = f.added + f.removed + f.modified;
  lines.push('');
  if (total === 0) lines.push('Source files: none changed.');
  else {
    lines.push(
      `Source files: ${plural(total, 'file')} changed (${f.modified} modified, ${f.added} added, ${f.removed} removed).`,
    );
    for (const c of f.changes) {
      const note =
        c.noDiff === 'lockfile'
          ? ' (lockfile: see dependencies)'
          : c.noDiff === 'binary'
            ? ' (binary)'
            : c.noDiff === 'large'
              ? ' (too large to compare)'
              : '';
      lines.push(`  ${c.status.padEnd(8)} ${c.path}${note}`);
      if (options.patches && c.diff) {
        for (const l of c.diff.replace(/\n$/, '').split('\n')) lines.push(`    ${l}`);
        if (c.linesMore > 0) lines.push(`    … ${plural(c.linesMore, 'more line')}`);
      }
    }
    if (f.more > 0) lines.push(`  … ${f.more} more`);
  }

  const d = diff.dependencies;
  lines.push('');
  const depCount = d.added.length + d.removed.length + d.changed.length + d.more;
  const lockfiles =
    d.lockfile.from === d.lockfile.to
      ? d.lockfile.to
        ? ` (${d.lockfile.to})`
        : ''
      : ` (${value(d.lockfile.from)} → ${value(d.lockfile.to)})`;
  if (!d.lockfile.from && !d.lockfile.to) lines.push('Dependencies: no lockfile on either side.');
  else if (depCount === 0) lines.push(`Dependencies: none changed${lockfiles}.`);
  else {
    lines.push(`Dependencies${lockfiles}:`);
    for (const c of d.changed)
      lines.push(`  ${c.upgrade ? 'upgraded  ' : 'changed   '} ${c.name} ${c.from} → ${c.to}`);
    for (const a of d.added) lines.push(`  added      ${a.name}@${a.version}`);
    for (const r of d.removed) lines.push(`  removed    ${r.name}@${r.version}`);
    if (d.more > 0) lines.push(`  … ${d.more} more`);
  }

  lines.push('');
  if (diff.toolchain.length === 0) lines.push('Toolchain: unchanged.');
  else {
    lines.push('Toolchain:');
    for (const c of diff.toolchain) lines.push(`  ${change(c)}`);
  }
  if (diff.plan.length === 0) lines.push('Plan: unchanged.');
  else {
    lines.push('Plan:');
    for (const c of diff.plan) lines.push(`  ${change(c)}`);
  }
  const env = diff.env;
  if (env.added.length === 0 && env.removed.length === 0) lines.push('Environment names: unchanged.');
  else {
    lines.push('Environment names:');
    if (env.added.length) lines.push(`  added   ${env.added.join(', ')}`);
    if (env.removed.length) lines.push(`  removed ${env.removed.join(', ')}`);
  }
  return lines;
}

/**
 * A question that asks what changed since the project was last green ("what changed since it last
 * worked?", "why is it red now?", "what's different from the last green build?"): the brain, the
 * Forge chat and the web's Forge assistant answer it from the same comparison.
 */
export const WHAT_CHANGED_QUESTION =
  /\bwhy is it (?:red|failing|broken)(?: now)?\b|\b(?:changed?|changes|different|difference|diff)\b.*\b(?:since|last (?:green|good|successful|working|passing)|went red|turned red)\b|\bsince it (?:last )?(?:worked|passed|built|succeeded|was green)\b/i;
