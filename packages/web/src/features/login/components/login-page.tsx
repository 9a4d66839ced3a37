import { useLocation, useNavigate } from 'react-router';
import { APP_PATHS } from '@/lib/app-paths.ts';
import { PageFrame } from '@/components/layout/page.tsx';
import { LoginForm } from './login-form.tsx';
import { SESSION_ENDED_TEXT, type LoginLocationState } from '../login-error.ts';

export function LoginPage() {
  const navigate = useNavigate();
  const state = useLocation().state as LoginLocationState | null;
  return (
    <PageFrame title="Login" description="Sign in to the family-only university area." className="max-w-md">
      <LoginForm
        notice={state?.expired ? SESSION_ENDED_TEXT : undefined}
        onSignedIn={() => void navigate(APP_PATHS.university)}
      />
    </PageFrame>
  );
}
