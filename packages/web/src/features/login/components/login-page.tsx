import { LogIn } from 'lucide-react';
import { EmptyState, PageFrame } from '@/components/layout/page.tsx';

export function LoginPage() {
  return (
    <PageFrame title="Login" description="Family access required" className="max-w-md">
      <EmptyState icon={LogIn} title="Sign-in is not available yet">
        The username and password form for the university area will appear here.
      </EmptyState>
    </PageFrame>
  );
}
