import type { MouseEvent } from 'react';
import { Download } from 'lucide-react';
import { forgeClient } from '@/lib/api.ts';
import { Button } from '@/components/ui/button.tsx';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { checkedDownload } from '@/features/upload/download.ts';
import { errorMessage } from '@/features/extensions/queries.ts';

/**
 * The installer link (GET /api/download/app, spec §2.2, §7). Spec §8 only logs download failures;
 * we log them and also say why, since a click that does nothing looks broken.
 */
function useDownloadPlatform() {
  const { toast } = useToast();
  const href = forgeClient.url('downloadApp');
  const start = () => {
    checkedDownload(href).catch((error: unknown) => {
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
