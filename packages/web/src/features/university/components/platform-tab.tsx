import { useState } from 'react';
import { Link } from 'react-router';
import { Download, ExternalLink, History, Package, Puzzle, RotateCw } from 'lucide-react';
import type { AuditEntry } from '@forge/shared';
import { formatLocalTime, UI_TEXT } from '@forge/shared/schema-free';
import { UNIVERSITY_TABS, universityPath } from '@/lib/app-paths.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { EmptyState, Mono } from '@/components/layout/page.tsx';
import { NAV_ITEMS } from '@/components/layout/nav-items.ts';
import {
  downloadLatestBuild,
  reasonOf,
  useExtensions,
  useFamilyAudit,
  usePackagePlatform,
} from '../queries.ts';

function BuildCard() {
  const { toast } = useToast();
  // A refused token sends the user to /login (lib/api.ts); this notice says why on the way.
  const pack = usePackagePlatform((error) =>
    toast({ title: UI_TEXT.packageFailed, description: reasonOf(error), variant: 'destructive' }),
  );
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      const name = await downloadLatestBuild();
      toast({ title: `Downloading ${name}` });
    } catch (error) {
      toast({ title: 'Download failed', description: reasonOf(error), variant: 'destructive' });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Platform build</CardTitle>
        <CardDescription>Rebuild and package Forge itself, then download the installer.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="flex flex-wrap gap-2">
          <Button disabled={pack.isPending} onClick={() => pack.mutate()}>
            <Package />
            {pack.isPending ? 'Packaging…' : 'Rebuild and package'}
          </Button>
          <Button variant="outline" disabled={downloading} onClick={() => void download()}>
            <Download />
            Download latest build
          </Button>
        </div>
        {/* "Build triggered" while it runs, then the daemon's status (docs/product.md#error-texts). */}
        {pack.isPending ? (
          <p role="status" className="text-sm">
            {UI_TEXT.packageTriggered}
          </p>
        ) : pack.isSuccess ? (
          <p role="status" className="text-sm">
            {pack.data.status || UI_TEXT.packageTriggered}
          </p>
        ) : null}
        {pack.isError ? (
          <div role="alert" className="flex flex-col gap-0.5 rounded-md border border-error/40 px-3 py-2">
            <p className="text-sm text-error">{UI_TEXT.packageFailed}</p>
            <p className="font-mono text-xs break-words text-muted-foreground">{reasonOf(pack.error)}</p>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function ExtensionsCard() {
  const extensions = useExtensions();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Installed extensions</CardTitle>
        <CardDescription>Install new ones from the dashboard&apos;s extension manager.</CardDescription>
      </CardHeader>
      <CardContent>
        {extensions.isPending ? (
          <div className="flex flex-col gap-2" aria-busy="true">
            <Skeleton className="h-8 w-full" />
            <Skeleton className="h-8 w-full" />
          </div>
        ) : extensions.isError ? (
          <div role="alert" className="flex flex-col items-start gap-2">
            <p className="text-sm">Could not load the extensions.</p>
            <p className="font-mono text-xs break-words text-error">{reasonOf(extensions.error)}</p>
            <Button variant="outline" size="sm" onClick={() => void extensions.refetch()}>
              <RotateCw />
              Try again
            </Button>
          </div>
        ) : extensions.data.length === 0 ? (
          <EmptyState icon={Puzzle} title="No extensions installed" className="py-6">
            Drop an extension ZIP on the dashboard&apos;s extension manager.
          </EmptyState>
        ) : (
          <ul className="divide-y" aria-label="Installed extensions">
            {extensions.data.map((ext) => (
              <li key={ext.name} className="flex items-center justify-between gap-3 py-2">
                <div className="flex min-w-0 flex-col">
                  <span className="truncate text-sm font-medium">{ext.displayName}</span>
                  <span className="truncate font-mono text-xs text-muted-foreground">{ext.name}</span>
                </div>
                <Button asChild variant="outline" size="sm">
                  <a href={ext.route}>
                    <ExternalLink />
                    Open
                  </a>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function NavigationCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Navigation</CardTitle>
        <CardDescription>Jump to any screen of the platform or the university.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <nav aria-label="Platform screens" className="flex flex-col gap-0.5">
          <span className="mb-1 text-xs text-muted-foreground">Platform</span>
          {NAV_ITEMS.filter((item) => !item.alias).map((item) => (
            <Link
              key={item.label}
              to={item.to}
              className="flex items-center gap-2 rounded-md py-1 text-sm hover:underline"
            >
              <item.icon aria-hidden="true" className="size-4 text-muted-foreground" />
              {item.label}
            </Link>
          ))}
        </nav>
        <nav aria-label="University sections" className="flex flex-col gap-0.5">
          <span className="mb-1 text-xs text-muted-foreground">University</span>
          {UNIVERSITY_TABS.map((t) => (
            <Link key={t.tab} to={universityPath(t.tab)} className="rounded-md py-1 text-sm hover:underline">
              {t.label} <Mono className="text-xs">{universityPath(t.tab)}</Mono>
            </Link>
          ))}
        </nav>
      </CardContent>
    </Card>
  );
}

const ACTION_LABEL: Record<AuditEntry['action'], string> = {
  login: 'Signed in',
  'login-failed': 'Failed sign-in',
  logout: 'Signed out',
  'account-added': 'Account added',
  'account-removed': 'Account removed',
  'password-changed': 'Password changed',
  package: 'Platform packaged',
  'extension-installed': 'Extension installed',
  'extension-removed': 'Extension removed',
  'extension-rolled-back': 'Extension rolled back',
  'app-rolled-back': 'App rolled back',
};

/** The audit log of family actions, newest first (GET /api/family/audit). */
function AuditCard() {
  const audit = useFamilyAudit();
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="flex flex-col gap-1">
          <CardTitle>Audit log</CardTitle>
          <CardDescription>Sign-ins, packaging and extension changes, newest first.</CardDescription>
        </div>
        <Button variant="outline" size="sm" disabled={audit.isFetching} onClick={() => void audit.refetch()}>
          <RotateCw />
          Refresh
        </Button>
      </CardHeader>
      <CardContent>
        {audit.isPending ? (
          <div className="flex flex-col gap-2" aria-busy="true">
            <Skeleton className="h-6 w-full" />
            <Skeleton className="h-6 w-full" />
          </div>
        ) : audit.isError ? (
          <div role="alert" className="flex flex-col items-start gap-1">
            <p className="text-sm">Could not load the audit log.</p>
            <p className="font-mono text-xs break-words text-error">{reasonOf(audit.error)}</p>
          </div>
        ) : audit.data.length === 0 ? (
          <EmptyState icon={History} title="Nothing recorded yet" className="py-6">
            Family sign-ins and platform changes are listed here.
          </EmptyState>
        ) : (
          <ol aria-label="Audit log" className="max-h-80 divide-y overflow-auto">
            {audit.data.map((entry) => (
              <li key={entry.id} data-action={entry.action} className="flex flex-col gap-0.5 py-1.5 text-sm">
                <span className="flex flex-wrap items-baseline gap-x-2">
                  <span className={entry.action === 'login-failed' ? 'text-error' : undefined}>
                    {ACTION_LABEL[entry.action]}
                  </span>
                  {entry.actor ? <span className="font-medium">{entry.actor}</span> : null}
                  <time dateTime={entry.at} className="ml-auto text-xs text-muted-foreground tabular-nums">
                    {formatLocalTime(entry.at)}
                  </time>
                </span>
                {entry.detail ? (
                  <span className="font-mono text-xs break-words text-muted-foreground">{entry.detail}</span>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * /university: platform controls (docs/product.md#other-screens) and the audit log
 * (docs/decisions.md#the-university-authbot).
 */
export function PlatformTab() {
  return (
    <div className="grid items-start gap-4 lg:grid-cols-2">
      <div className="flex flex-col gap-4">
        <BuildCard />
        <NavigationCard />
      </div>
      <div className="flex flex-col gap-4">
        <ExtensionsCard />
        <AuditCard />
      </div>
    </div>
  );
}
