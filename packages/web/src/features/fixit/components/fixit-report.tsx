import { buildStateLabel } from '@forge/shared/schema-free';
import { useProject } from '@/lib/project-context.tsx';
import { useLatestBuild } from '@/features/builds/queries.ts';
import { BuildDiagnosis } from '@/features/builds/components/build-diagnosis.tsx';
import { BuildWorker } from '@/features/builds/components/build-worker.tsx';
import { BuildErrorList, listedErrors } from '@/features/builds/components/build-errors.tsx';
import { LazyRepairList as RepairList } from './repair-list-lazy.tsx';
import { WhyRedPanel } from './why-red-panel.tsx';

/**
 * The FixIt side of the selected project's last build: ScanBot's diagnosis when it failed, every
 * error its tools printed (when several), RepairBot's repairs — proposed ones with their diff and
 * "Apply fix", applied ones with "Undo" — and what changed since the last green build.
 * Nothing while there is nothing to repair, so the log keeps the panel to itself.
 */
export function FixItReport() {
  const { project } = useProject();
  const { view } = useLatestBuild(project);
  const build = view?.build;
  if (!build) return null;
  const failed = build.status === 'failed' || build.status === 'timed-out';
  const diagnosis = failed ? build.diagnosis : null;
  const errors = failed ? listedErrors(build.error) : [];
  if (!diagnosis && errors.length === 0 && build.repairs.length === 0) return null;
  return (
    <section
      aria-label="Diagnosis and repairs"
      className="flex max-h-[28rem] flex-col gap-2 overflow-y-auto border-b px-3 py-2"
    >
      <div className="flex flex-wrap items-center gap-x-1.5 gap-y-1 text-[0.7rem] text-muted-foreground">
        <p>
          Build <span className="font-mono">{build.id}</span> of{' '}
          <span className="font-medium text-foreground">{build.projectName}</span> ·{' '}
          {buildStateLabel(build.status, build.stage)}
        </p>
        <BuildWorker build={build} className="px-1 py-0 text-[0.7rem]" />
      </div>
      {diagnosis ? <BuildDiagnosis diagnosis={diagnosis} canOpen /> : null}
      {errors.length > 0 && build.error ? (
        <BuildErrorList error={build.error} canOpen className="text-xs" />
      ) : null}
      <RepairList build={build} />
      <WhyRedPanel build={build} />
    </section>
  );
}
