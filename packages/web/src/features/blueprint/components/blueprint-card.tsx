import { useState, type ReactNode } from 'react';
import { Boxes, FileCode2, Network } from 'lucide-react';
import type { Blueprint, Build } from '@forge/shared';
import {
  frameworkWithStack,
  buildStateLabel,
  LOCAL_WORKER,
  nodeSummary,
  plural,
  TOTAL_BOTS,
  UI_TEXT,
} from '@forge/shared/schema-free';
import { useProject } from '@/lib/project-context.tsx';
import { useConnectionStatus, useSocketMessages } from '@/lib/socket.tsx';
import { cn } from '@/lib/utils.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { TONE_DOT, useBotStatus, type ActivityTone } from '@/components/layout/bot-status.ts';
import { useLatestBuild } from '@/features/builds/queries.ts';
import { AppPicker } from './app-picker.tsx';

/** "pnpm 10.20.0": the package manager, with the version Forge provisioned (or asked for) when it did. */
function packageManagerText(plan: Blueprint): string {
  if (!plan.packageManager) return 'none';
  const tool = plan.toolchain;
  if (!tool) return plan.packageManager;
  return `${plan.packageManager} ${tool.version ?? tool.request}`;
}

function Fact({
  icon,
  label,
  tone,
  children,
}: {
  icon: ReactNode;
  label: string;
  tone?: ActivityTone;
  children: ReactNode;
}) {
  return (
    <div className="flex items-start gap-2">
      <span aria-hidden="true" className="mt-0.5 text-muted-foreground [&_svg]:size-3.5">
        {icon}
      </span>
      <div className="min-w-0 flex-1">
        <dt className="text-muted-foreground">{label}</dt>
        <dd className="flex items-center gap-1.5 text-foreground">
          {tone ? (
            <span aria-hidden="true" className={cn('size-1.5 shrink-0 rounded-full', TONE_DOT[tone])} />
          ) : null}
          <span className="min-w-0 truncate">{children}</span>
        </dd>
      </div>
    </div>
  );
}

function PlanRow({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <div className="flex items-baseline justify-between gap-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 truncate font-mono text-foreground" title={value ?? undefined}>
        {value ?? '—'}
      </dd>
    </div>
  );
}

/** The machine whose Node the plan checked: this one, or the `forge worker` that ran the build. */
const builtBy = (build: Build): string =>
  build.worker === null || build.worker === LOCAL_WORKER ? 'this machine' : `the worker ${build.worker}`;

/** Counts file changes the daemon pushed since this card mounted: the live file operations. */
function useFileOperations() {
  const [seen, setSeen] = useState<{ count: number; last: string | null }>({ count: 0, last: null });
  useSocketMessages((message) => {
    if (message.type === 'file-content-updated') {
      setSeen((s) => ({ count: s.count + 1, last: message.filePath }));
    } else if (message.type === 'project-files-updated') {
      setSeen((s) => ({ count: s.count + 1, last: s.last }));
    }
  });
  return seen;
}

/**
 * The blueprint card (docs/product.md#what-forge-is, docs/product.md#dashboard): "25 bots", real-time
 * orchestration and live file operations — each shown as a live fact — and the plan BlueprintBot made for the
 * current project's latest build.
 */
export function BlueprintCard() {
  const { project } = useProject();
  const bots = useBotStatus();
  const connected = useConnectionStatus() === 'connected';
  const files = useFileOperations();
  const latest = useLatestBuild(project);
  const build = latest.view?.build ?? null;
  const plan = build?.blueprint ?? null;

  return (
    <Card className="gap-0">
      <CardHeader className="flex-row items-center justify-between px-3 pt-3">
        <CardTitle className="flex items-center gap-1.5">
          <Boxes aria-hidden="true" className="size-4 text-muted-foreground" />
          Blueprint
        </CardTitle>
        <Badge variant="secondary">{TOTAL_BOTS} bots</Badge>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 px-3 py-3 text-xs">
        <dl className="flex flex-col gap-2">
          <Fact icon={<Boxes />} label="Fleet" tone={bots.isError ? 'error' : bots.data?.tone}>
            {bots.isError
              ? UI_TEXT.botStatusFailed
              : bots.data
                ? `${bots.data.online}/${TOTAL_BOTS} bots online`
                : 'Checking…'}
          </Fact>
          <Fact icon={<Network />} label="Real-time orchestration" tone={connected ? 'online' : 'error'}>
            {connected ? 'Live over the socket' : 'Socket disconnected'}
          </Fact>
          <Fact icon={<FileCode2 />} label="Live file operations" tone={connected ? 'online' : 'error'}>
            {files.count === 0
              ? connected
                ? 'Watching for changes'
                : 'Paused while disconnected'
              : `${plural(files.count, 'change')}${files.last ? ` · ${files.last}` : ''}`}
          </Fact>
        </dl>
        <section aria-label="Build plan" className="flex flex-col gap-1 border-t pt-2">
          <h3 className="flex items-center justify-between font-medium">
            Plan
            {build ? (
              <span className="font-normal text-muted-foreground">
                {buildStateLabel(build.status, build.stage)}
              </span>
            ) : null}
          </h3>
          {!project ? (
            <p className="text-muted-foreground">Upload a project to see how the bots will build it.</p>
          ) : build ? (
            plan ? (
              <>
                <dl className="flex flex-col gap-1">
                  <PlanRow label="Framework" value={frameworkWithStack(plan)} />
                  <PlanRow label="Package manager" value={packageManagerText(plan)} />
                  {plan.node?.resolved ? <PlanRow label="Node" value={nodeSummary(plan.node)} /> : null}
                  {plan.appDir !== '.' ? <PlanRow label="App" value={plan.appDir} /> : null}
                  <PlanRow label="Output dir" value={plan.outputDir} />
                  <PlanRow label="Kind" value={plan.kind} />
                </dl>
                {plan.node?.satisfied === false && !plan.node.resolved ? (
                  <p role="note" className="text-pending">
                    The project asks for Node {plan.node.wanted} ({plan.node.file}); {builtBy(build)} runs
                    Node {plan.node.current}.
                  </p>
                ) : null}
                {project && plan.apps.length > 1 ? (
                  <AppPicker
                    key={`${build.id}:${plan.appDir}`}
                    projectName={project}
                    apps={plan.apps}
                    current={plan.appDir}
                  />
                ) : null}
              </>
            ) : (
              <p className="text-muted-foreground">This build has no plan yet.</p>
            )
          ) : latest.isPending ? (
            <div className="flex flex-col gap-1.5">
              <Skeleton className="h-3.5 w-full" />
              <Skeleton className="h-3.5 w-full" />
              <Skeleton className="h-3.5 w-2/3" />
            </div>
          ) : latest.error ? (
            <p role="alert" className="text-error">
              {latest.error.message}
            </p>
          ) : (
            <p className="text-muted-foreground">No build of this project yet.</p>
          )}
        </section>
      </CardContent>
    </Card>
  );
}
