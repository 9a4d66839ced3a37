import { AppWindow, ExternalLink } from 'lucide-react';
import { Link } from 'react-router';
import type { IntegratedApp } from '@forge/shared';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { errorMessage, rolledBackAppLine, useIntegratedApps, useRollbackApp } from '../queries.ts';
import { RollbackButton, type BannerMessage } from './rollback-button.tsx';

/** Shown instead of a list until a build has been integrated. */
export const NO_APPS_HINT = 'No apps integrated yet — use Integrate in the Build Complete dialog.';

function AppRow({ app, onBanner }: { app: IntegratedApp; onBanner: (banner: BannerMessage) => void }) {
  const rollback = useRollbackApp();
  const rollBack = () =>
    rollback.mutate(app.name, {
      onSuccess: (answer) => onBanner({ kind: 'success', text: rolledBackAppLine(answer) }),
      onError: (error) => onBanner({ kind: 'error', text: errorMessage(error) }),
    });
  return (
    <li className="flex flex-col gap-1">
      <div className="flex min-w-0 items-center gap-2">
        <AppWindow aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" />
        <span className="min-w-0 flex-1">
          <span className="block truncate text-foreground">{app.name}</span>
          <span className="flex min-w-0 gap-1.5 font-mono text-muted-foreground">
            {/* Its route in the workspace, where the router frames it (features/dynamic-routes). */}
            <Link to={app.path} className="truncate underline-offset-2 hover:text-foreground hover:underline">
              {app.path}
            </Link>
            <span className="truncate" title={`Serves build ${app.buildId}`}>
              build {app.buildId}
            </span>
          </span>
        </span>
      </div>
      {/* The actions on a line of their own: the right column is 200-400 px wide. */}
      <div className="flex flex-wrap items-center gap-1 pl-5.5">
        {app.url ? (
          <Button asChild variant="outline" size="sm" className="h-6 px-2">
            {/* Its own origin, outside the workspace (a plain page of its own). */}
            <a href={app.url} target="_blank" rel="noreferrer" aria-label={`Open ${app.name}`}>
              Open
              <ExternalLink aria-hidden="true" className="size-3" />
            </a>
          </Button>
        ) : null}
        {app.previousBuildId ? (
          <RollbackButton
            target={`build ${app.previousBuildId}`}
            subject={app.name}
            pending={rollback.isPending}
            onClick={rollBack}
          />
        ) : null}
      </div>
    </li>
  );
}

/**
 * The apps IntegrationBot published (GET /api/apps, polled like the extensions): each with its
 * route in the workspace, the build it serves, Open (its own origin, in a new tab) and, when an
 * earlier build is kept, a rollback to it. Rollback answers go to the card's banner.
 */
export function IntegratedApps({ onBanner }: { onBanner: (banner: BannerMessage) => void }) {
  const { data, isPending, isError, error } = useIntegratedApps();
  let body;
  if (isPending) body = <Skeleton className="h-6 w-full" />;
  else if (isError)
    body = <p className="text-muted-foreground">Integrated apps unavailable: {errorMessage(error)}</p>;
  else if (data.length === 0) body = <p className="text-muted-foreground">{NO_APPS_HINT}</p>;
  else
    body = (
      <ul className="flex flex-col gap-1" aria-label="Integrated apps">
        {data.map((app) => (
          <AppRow key={app.name} app={app} onBanner={onBanner} />
        ))}
      </ul>
    );
  return (
    <section aria-label="Integrated apps" className="flex flex-col gap-1.5">
      <h3 className="flex items-center gap-1.5 font-medium">
        <AppWindow aria-hidden="true" className="size-3.5 text-muted-foreground" />
        Integrated apps
      </h3>
      {body}
    </section>
  );
}
