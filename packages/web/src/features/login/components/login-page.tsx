import { useNavigate } from 'react-router';
import { APP_PATHS } from '@/lib/app-paths.ts';
import { PageFrame } from '@/components/layout/page.tsx';
import { LoginForm } from './login-form.tsx';

export function LoginPage() {
  const navigate = useNavigate();
  return (
    <PageFrame title="Login" description="Sign in to the family-only university area." className="max-w-md">
      <LoginForm onSignedIn={() => void navigate(APP_PATHS.university)} />
    </PageFrame>
  );
}
