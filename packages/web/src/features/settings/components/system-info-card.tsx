import type { ReactNode } from 'react';
import { TOTAL_BOTS } from '@forge/shared/schema-free';
import { useBotStatus } from '@/components/layout/bot-status.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDaemonState, type DaemonState } from '@/features/system/queries.ts';

const STATUS: Record<DaemonState, { label: string; engine: string; tone: 'online' | 'pending' | 'error' }> = {
  operational: { label: 'operational', engine: 'engine active', tone: 'online' },
  checking: { label: 'checking', engine: 'checking', tone: 'pending' },
  offline: { label: 'offline', engine: 'engine unreachable', tone: 'error' },
};

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right">{children}</dd>
    </div>
  );
}

/**
 * The system information card (docs/product.md#other-screens), every value observed from the running daemon.
 */
export function SystemInfoCard() {
  const { state, health } = useDaemonState();
  const bots = useBotStatus();
  const status = STATUS[state];
  return (
    <Card>
      <CardHeader>
        <CardTitle>System information</CardTitle>
        <CardDescription>The Forge daemon serving this page.</CardDescription>
      </CardHeader>
      <CardContent className="pt-2">
        <dl className="divide-y text-sm">
          <Row label="Version">
            {health.data ? (
              <span className="font-mono">{health.data.version}</span>
            ) : health.isPending ? (
              <Skeleton className="h-4 w-12" />
            ) : (
              <span className="text-muted-foreground">unknown</span>
            )}
          </Row>
          <Row label="Bots">
            {bots.data ? (
              // Online as the fleet reports it (GET /api/bots/status), not the roster's size.
              <span className="font-mono">
                {bots.data.online}/{TOTAL_BOTS} bots
              </span>
            ) : bots.isPending ? (
              <Skeleton className="h-4 w-16" />
            ) : (
              <span className="text-muted-foreground">unknown</span>
            )}
          </Row>
          <Row label="Status">
            <Badge variant={status.tone}>{status.label}</Badge>
          </Row>
          <Row label="Engine">
            <Badge variant={status.tone}>{status.engine}</Badge>
          </Row>
        </dl>
        {health.isError ? (
          <p className="mt-2 font-mono text-xs break-words text-error">{health.error.message}</p>
        ) : null}
      </CardContent>
    </Card>
  );
}
