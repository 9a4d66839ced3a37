import type { ComponentProps } from 'react';
import { useNavigate } from 'react-router';
import { LoaderCircle, Package } from 'lucide-react';
import { isForgeHttpError } from '@/lib/http-error.ts';
import { APP_PATHS } from '@/lib/app-paths.ts';
import { readAuthToken } from '@/lib/auth.ts';
import { Button } from '@/components/ui/button.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { packageNotice, usePackagePlatform } from '../queries.ts';

/**
 * Whether a failed package request should take the user to /login: any 401, except the refusal of
 * a stored token, after which lib/api.ts signed it out and the app shell (useAuthExpired) is
 * already on its way there.
 */
const goesToLogin = (error: unknown, hadToken: boolean): boolean =>
  isForgeHttpError(error) && error.status === 401 && !(hadToken && error.code === 'FAMILY_AUTH_REQUIRED');

/**
 * Hook for anything that repackages the platform: header button, menu item, Repackage card.
 * POST /api/package-platform needs the family token, which forgeClient (lib/api.ts apiFetch) sends
 * when one is stored. A 401 says "Build failed - family authentication required" and goes to /login.
 */
export function useRepackage() {
  const packagePlatform = usePackagePlatform();
  const { toast } = useToast();
  const navigate = useNavigate();
  const run = () => {
    const hadToken = readAuthToken() !== null;
    packagePlatform.mutate(undefined, {
      onSuccess: (answer) => toast(packageNotice({ ok: true, status: answer.status })),
      onError: (error) => {
        toast(packageNotice({ ok: false, error }));
        if (goesToLogin(error, hadToken)) void navigate(APP_PATHS.login);
      },
    });
  };
  return { run, pending: packagePlatform.isPending, status: packagePlatform.data?.status };
}

/** The header's "Package" button (docs/product.md#dashboard). */
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
