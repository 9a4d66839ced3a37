import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { Download } from 'lucide-react';
import { forgeClient } from '@/lib/api.ts';
import { APP_PATHS } from '@/lib/app-paths.ts';
import { readAuthToken } from '@/lib/auth.ts';
import { Button } from '@/components/ui/button.tsx';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { errorMessage } from '@/features/extensions/queries.ts';
import { downloadLatestBuild } from '@/features/university/queries.ts';

/**
 * The installer download (GET /api/download/app, docs/product.md#dashboard, docs/product.md#http-calls). The
 * route needs the family token, which a plain link cannot carry, so the click fetches it through apiFetch and
 * saves the answer (university queries `downloadLatestBuild`); the element stays a link for its role and
 * name. Without a stored token there is nothing to send: the user goes to /login first (spec: packaging needs
 * family authentication). docs/product.md#error-texts only logs download failures; we log them and also say
 * why (e.g. 404 "No platform package yet: Repackage Platform first."), since a silent click looks broken. A
 * refused token is handled by the app shell (lib/auth.ts `useAuthExpired`), which goes to /login.
 */
export function useDownloadPlatform() {
  const { toast } = useToast();
  const navigate = useNavigate();
  const href = forgeClient.url('downloadApp');
  const start = () => {
    if (!readAuthToken()) {
      void navigate(APP_PATHS.login);
      return;
    }
    downloadLatestBuild().catch((error: unknown) => {
      console.warn('[forge] platform download failed', error);
      toast({ variant: 'destructive', title: 'Download failed', description: errorMessage(error) });
    });
  };
  const onClick = (event: MouseEvent) => {
    event.preventDefault();
    start();
  };
  return { href, start, onClick };
}

export function DownloadPlatformLink() {
  const { href, onClick } = useDownloadPlatform();
  return (
    <Button asChild variant="ghost" size="sm">
      <a href={href} download onClick={onClick}>
        <Download aria-hidden="true" />
        Download
      </a>
    </Button>
  );
}

export function DownloadPlatformMenuItem() {
  const { start } = useDownloadPlatform();
  return (
    <DropdownMenuItem onSelect={start}>
      <Download aria-hidden="true" />
      Download
    </DropdownMenuItem>
  );
}
