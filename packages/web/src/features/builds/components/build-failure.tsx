import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import type { Build, BuildLogsResponse } from '@forge/shared';
import { formatClock, sanitizeLine } from '@forge/shared/schema-free';
import { forgeClient } from '@/lib/api.ts';
import { routeQueryKey } from '@/lib/query-client.ts';
import { LazyRepairList as RepairList } from '@/features/fixit/components/repair-list-lazy.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { showsFailure } from '@/features/builds/build-state.ts';
import { BuildDiagnosis, PlaceLink } from './build-diagnosis.tsx';
import { BuildErrorList } from './build-errors.tsx';

/** Lines asked for per page of the full log (the route's most). */
const LOG_PAGE_LINES = 10_000;

/** Every stored line of a build's log, page after page. */
async function fullLog(id: string): Promise<BuildLogsResponse['entries']> {
  const entries: BuildLogsResponse['entries'] = [];
  let after = 0;
  for (;;) {
    const page = await forgeClient.request('buildLogs', {
      params: { id },
      query: { after, limit: LOG_PAGE_LINES },
    });
    entries.push(...page.entries);
    if (page.entries.length < LOG_PAGE_LINES || page.next <= after) return entries;
    after = page.next;
  }
}

/** "View full log": the build's whole stored log in a dialog, read when it opens. */
function FullLog({ build }: { build: Build }) {
  const [open, setOpen] = useState(false);
  const log = useQuery({
    queryKey: [...routeQueryKey('buildLogs', { params: { id: build.id } }), 'all'],
    queryFn: () => fullLog(build.id),
    enabled: open,
  });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button variant="outline" size="sm" className="h-6 gap-1 px-2 text-xs" onClick={() => setOpen(true)}>
        <FileText />
        View full log
      </Button>
      <DialogContent className="sm:max-w-4xl">
        <DialogHeader>
          <DialogTitle>Log of build {build.id}</DialogTitle>
          <DialogDescription>
            {build.projectName}, {build.status}
            {build.logTruncated ? ` — the daemon kept the first ${build.logCount} lines` : ''}
          </DialogDescription>
        </DialogHeader>
        {log.isPending ? (
          <p className="text-sm text-muted-foreground">Reading the log…</p>
        ) : log.isError ? (
          <p className="text-sm text-error">Could not read the log: {log.error.message}</p>
        ) : (
          <pre
            aria-label="Full build log"
            tabIndex={0}
            className="max-h-[60vh] overflow-auto rounded-md bg-muted/60 p-2 font-mono text-[0.7rem] leading-4 whitespace-pre-wrap break-words outline-none focus-visible:ring-2 focus-visible:ring-ring/60"
          >
            {log.data
              .map(
                (e) =>
                  `${formatClock(e.timestamp)} ${e.level.toUpperCase().padEnd(7)} ${e.botName} ${sanitizeLine(e.message)}`,
              )
              .join('\n')}
          </pre>
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * Why a build failed, as a person reads it (the Build Failed state): ScanBot's diagnosis first — what
 * is wrong, where (a click opens the file in the code area at that line) and what to do — then the
 * first error line the tool printed with its file:line, Forge's one-sentence message, every error
 * the tools printed when there were several (the first highlighted), the probable
 * cause when there is no diagnosis, the app's last lines when no line stated an error, RepairBot's
 * repairs (Apply fix / Undo) and "View full log". Nothing for a build that did not fail.
 */
export function BuildFailure({ build, project }: { build: Build; project: string | null }) {
  const error = build.error;
  if (!error || !showsFailure(build)) return null;
  // Files open in the selected project: a place in another project's build is shown, not linked.
  const location = error.location;
  const canOpen = project === null || project === build.projectName;
  const diagnosis = build.diagnosis;
  return (
    <div
      role="group"
      aria-label="Why the build failed"
      className="flex flex-col gap-1 rounded-md border border-error/40 bg-error/5 p-2 text-xs"
    >
      {diagnosis ? (
        <BuildDiagnosis diagnosis={diagnosis} canOpen={canOpen} className="border-b border-error/20 pb-1.5" />
      ) : null}
      {error.firstLine ? (
        <p className="font-mono break-words" aria-label="First error">
          {location ? <PlaceLink place={location} canOpen={canOpen} className="mr-1.5" /> : null}
          <span className="text-error">{error.firstLine}</span>
        </p>
      ) : null}
      <p>
        {error.message} <span className="text-muted-foreground">[{error.code}]</span>
      </p>
      <BuildErrorList error={error} canOpen={canOpen} />
      {error.probableCause && !diagnosis ? <p className="text-pending">{error.probableCause}</p> : null}
      {!error.firstLine && error.tail?.length ? (
        <pre
          aria-label="Last output"
          className="max-h-32 overflow-auto rounded bg-muted/60 p-1.5 font-mono text-[0.7rem] leading-4 whitespace-pre-wrap break-words"
        >
          {error.tail.map(sanitizeLine).join('\n')}
        </pre>
      ) : null}
      <RepairList build={build} diffOpen={false} className="mt-1" />
      <div>
        <FullLog build={build} />
      </div>
    </div>
  );
}
