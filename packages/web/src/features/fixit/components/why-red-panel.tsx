import type { Build, BuildDiff, ValueChange } from '@forge/shared';
import { isForgeHttpError } from '@/lib/http-error.ts';
import { useBuildDiff } from '../why-red-query.ts';
import { DiffView } from './diff-view.tsx';
import { useProjectHistory } from '@/features/history/queries.ts';

const value = (v: string | null) => (v === null || v === '' ? '(none)' : v);

function Changes({ title, changes }: { title: string; changes: ValueChange[] }) {
  if (changes.length === 0) return <p className="text-muted-foreground">{title}: unchanged.</p>;
  return (
    <div>
      <p className="font-medium">{title}</p>
      <ul className="ml-3 font-mono">
        {changes.map((c) => (
          <li key={c.name}>
            {c.name}: {value(c.from)} → {value(c.to)}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Dependencies({ deps }: { deps: BuildDiff['dependencies'] }) {
  const count = deps.added.length + deps.removed.length + deps.changed.length + deps.more;
  const lockfile = deps.lockfile.to ?? deps.lockfile.from;
  if (!lockfile) return <p className="text-muted-foreground">Dependencies: no lockfile on either side.</p>;
  if (count === 0) return <p className="text-muted-foreground">Dependencies: none changed ({lockfile}).</p>;
  return (
    <div>
      <p className="font-medium">Dependencies ({lockfile})</p>
      <ul aria-label="Dependency changes" className="ml-3 font-mono">
        {deps.changed.map((c) => (
          <li key={c.name}>
            {c.upgrade ? 'upgraded' : 'changed'} {c.name} {c.from} → {c.to}
          </li>
        ))}
        {deps.added.map((a) => (
          <li key={`+${a.name}@${a.version}`}>
            added {a.name}@{a.version}
          </li>
        ))}
        {deps.removed.map((r) => (
          <li key={`-${r.name}@${r.version}`}>
            removed {r.name}@{r.version}
          </li>
        ))}
        {deps.more > 0 ? <li>… {deps.more} more</li> : null}
      </ul>
    </div>
  );
}

function Files({ files }: { files: BuildDiff['files'] }) {
  const total = files.added + files.removed + files.modified;
  if (total === 0) return <p className="text-muted-foreground">Source files: none changed.</p>;
  return (
    <div>
      <p className="font-medium">
        Source files: {total} changed ({files.modified} modified, {files.added} added, {files.removed}{' '}
        removed)
      </p>
      <ul aria-label="Changed files" className="ml-1 flex flex-col gap-1">
        {files.changes.map((c) => (
          <li key={c.path}>
            {c.diff ? (
              <details>
                <summary className="cursor-pointer font-mono">
                  {c.status} {c.path}
                </summary>
                <DiffView diff={c.diff} label={`Changes to ${c.path}`} className="mt-1" />
                {c.linesMore > 0 ? <p className="text-muted-foreground">… {c.linesMore} more lines</p> : null}
              </details>
            ) : (
              <span className="font-mono">
                {c.status} {c.path}
                {c.noDiff === 'lockfile' ? ' (lockfile: see dependencies)' : c.noDiff ? ` (${c.noDiff})` : ''}
              </span>
            )}
          </li>
        ))}
        {files.more > 0 ? <li>… {files.more} more</li> : null}
      </ul>
    </div>
  );
}

/**
 * FixIt's "Why is it red now?": the failed build compared with the last green build of its project
 * (GET /api/builds/:id/diff) — what the error points at first, then the files, dependencies,
 * toolchain, plan and environment names that changed. Never green: the daemon's words for it.
 */
export function WhyRedPanel({ build }: { build: Build }) {
  const failed = build.status === 'failed' || build.status === 'timed-out';
  // Asked only when a kept green build came before it: a project never green has nothing to compare,
  // which the history (always an answer) says without a refused request.
  const history = useProjectHistory(failed ? build.projectName : null);
  const earlierGreen = history.data?.builds.some((b) => b.createdAt < build.createdAt) ?? false;
  const { data: diff, error, isPending } = useBuildDiff(build.id, failed && earlierGreen);
  if (!failed) return null;
  const neverGreen = history.data !== undefined && !earlierGreen;
  return (
    <section aria-label="Why is it red now?" className="flex flex-col gap-1.5 rounded-md border p-2 text-xs">
      <h3 className="text-[0.7rem] font-semibold tracking-wide text-muted-foreground uppercase">
        Why is it red now?
      </h3>
      {neverGreen ? (
        <p className="text-muted-foreground">
          {build.projectName} has no successful build before this one that Forge still keeps: nothing to
          compare with. Once a build is green, later failures are compared with it.
        </p>
      ) : diff ? (
        <>
          <p className="font-medium text-foreground" data-testid="why-red-summary">
            {diff.summary}
          </p>
          {diff.pointsAt.length > 0 ? (
            <ul aria-label="What the error points at" className="ml-3 list-disc">
              {diff.pointsAt.map((p) => (
                <li key={`${p.kind}:${p.name}`}>{p.reason}</li>
              ))}
            </ul>
          ) : null}
          <p className="text-muted-foreground">
            Compared with <span className="font-mono">{diff.greenBuildId}</span>, the last green build.
          </p>
          <Files files={diff.files} />
          <Dependencies deps={diff.dependencies} />
          <Changes title="Toolchain" changes={diff.toolchain} />
          <Changes title="Plan" changes={diff.plan} />
          {diff.env.added.length + diff.env.removed.length === 0 ? (
            <p className="text-muted-foreground">Environment names: unchanged.</p>
          ) : (
            <p>
              Environment names:
              {diff.env.added.length ? ` added ${diff.env.added.join(', ')}` : ''}
              {diff.env.removed.length ? ` removed ${diff.env.removed.join(', ')}` : ''}
            </p>
          )}
        </>
      ) : error ? (
        <p className="text-muted-foreground">
          {isForgeHttpError(error) ? error.serverMessage : error.message}
        </p>
      ) : isPending ? (
        <p className="text-muted-foreground">Comparing with the last green build…</p>
      ) : null}
    </section>
  );
}
