import { RotateCw } from 'lucide-react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Mono, PageFrame } from '@/components/layout/page.tsx';
import { useSettings, type BooleanSettingKey } from '../queries.ts';
import { SettingToggleRow } from './setting-toggle-row.tsx';
import { SystemInfoCard } from './system-info-card.tsx';

const TOGGLES: readonly { key: BooleanSettingKey; label: string; description: string }[] = [
  {
    key: 'botOrchestration',
    label: 'Bot orchestration',
    description: 'Assign bots to the stages of every uploaded project automatically.',
  },
  {
    key: 'autoRepair',
    label: 'Auto-repair',
    description:
      'When a build fails, RepairBot makes the safe repairs (missing packages, import case, lockfile…) and builds again. Off: FixIt proposes them for you to apply.',
  },
  {
    key: 'debugMode',
    label: 'Debug mode',
    description: 'Log every bot and pipeline step in detail.',
  },
];

function FleetSettings() {
  const settings = useSettings();

  if (settings.isPending) {
    return (
      <div className="divide-y" aria-busy="true">
        {TOGGLES.map((t) => (
          <div key={t.key} className="flex items-center justify-between gap-4 py-3">
            <div className="flex flex-col gap-1.5">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-3 w-64" />
            </div>
            <Skeleton className="h-[1.15rem] w-8 rounded-full" />
          </div>
        ))}
      </div>
    );
  }

  if (settings.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-2 py-3">
        <p className="text-sm">Could not load the settings.</p>
        <p className="font-mono text-xs break-words text-error">{settings.error.message}</p>
        <Button variant="outline" size="sm" onClick={() => void settings.refetch()}>
          <RotateCw />
          Try again
        </Button>
      </div>
    );
  }

  const data = settings.data;
  return (
    <div className="divide-y">
      {TOGGLES.map((t) => (
        <SettingToggleRow
          key={t.key}
          settingKey={t.key}
          label={t.label}
          description={t.description}
          checked={data[t.key]}
        />
      ))}
      <div className="flex items-center justify-between gap-4 py-3">
        <div className="flex min-w-0 flex-col gap-0.5">
          <span className="text-sm font-medium">Max concurrent bots</span>
          <p className="text-xs text-muted-foreground">
            Change it with <Mono>forge settings set maxConcurrentBots &lt;n&gt;</Mono>
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Badge variant="outline">read-only</Badge>
          <span className="font-mono text-sm tabular-nums" aria-label="Max concurrent bots">
            {data.maxConcurrentBots}
          </span>
        </div>
      </div>
      <div className="flex items-center justify-between gap-4 py-3">
        <div className="flex min-w-0 flex-col gap-0.5">
          <span className="text-sm font-medium">Builds kept per project</span>
          <p className="text-xs text-muted-foreground">
            The history rollback can return to. Change it with{' '}
            <Mono>forge settings set keepArtifacts &lt;n&gt;</Mono>
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Badge variant="outline">read-only</Badge>
          <span className="font-mono text-sm tabular-nums" aria-label="Builds kept per project">
            {data.keepArtifacts}
          </span>
        </div>
      </div>
    </div>
  );
}

export function SettingsPage() {
  return (
    <PageFrame title="Settings" description="How the bot fleet works on this machine.">
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card>
          <CardHeader>
            <CardTitle>Bot fleet</CardTitle>
            <CardDescription>Changes apply at once and are kept across daemon restarts.</CardDescription>
          </CardHeader>
          <CardContent className="pt-1 pb-1">
            <FleetSettings />
          </CardContent>
        </Card>
        <SystemInfoCard />
      </div>
    </PageFrame>
  );
}
