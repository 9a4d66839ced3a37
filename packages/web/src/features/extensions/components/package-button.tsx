import type { ComponentProps } from 'react';
import { LoaderCircle, Package } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { packageNotice, usePackagePlatform } from '../queries.ts';

/** Hook for anything that repackages the platform: header button, menu item, Repackage card. */
export function useRepackage() {
  const packagePlatform = usePackagePlatform();
  const { toast } = useToast();
  const run = () =>
    packagePlatform.mutate(undefined, {
      onSuccess: (answer) => toast(packageNotice({ ok: true, status: answer.status })),
      onError: (error) => toast(packageNotice({ ok: false, error })),
    });
  return { run, pending: packagePlatform.isPending, status: packagePlatform.data?.status };
}

/** The header's "Package" button (spec §2.2). */
export function PackageButton({ children = 'Package', ...props }: ComponentProps<typeof Button>) {
  const { run, pending } = useRepackage();
  return (
    <Button
      variant="ghost"
      size="sm"
      onClick={run}
      disabled={pending}
      aria-busy={pending || undefined}
      {...props}
    >
      {pending ? (
        <LoaderCircle aria-hidden="true" className="animate-spin" />
      ) : (
        <Package aria-hidden="true" />
      )}
      {children}
    </Button>
  );
}
