import { useState, type ReactNode } from 'react';
import { Link, NavLink, useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import {
  APP_PATHS,
  UNIVERSITY_TABS,
  isUniversityTab,
  universityPath,
  type UniversityTab,
} from '@/lib/app-paths.ts';
import { forgeClient } from '@/lib/api.ts';
import { clearAuthToken, useAuthExpired, useAuthToken } from '@/lib/auth.ts';
import { cn } from '@/lib/utils.ts';
import { Button } from '@/components/ui/button.tsx';
import { PageFrame } from '@/components/layout/page.tsx';
import { NotFoundPage } from '@/features/not-found/not-found-page.tsx';
import { LoginForm } from '@/features/login/components/login-form.tsx';
import type { LoginLocationState } from '@/features/login/login-error.ts';
import { forgetFamilyData, useFamilySession } from '../queries.ts';
import { FamilyChatTab } from './family-chat-tab.tsx';
import { MemoryTab } from './memory-tab.tsx';
import { PlatformTab } from './platform-tab.tsx';
import { SwarmTab } from './swarm-tab.tsx';

const TAB_CONTENT: Record<UniversityTab, () => ReactNode> = {
  '': () => <PlatformTab />,
  chat: () => <FamilyChatTab />,
  memory: () => <MemoryTab />,
  bots: () => <SwarmTab />,
};

/** "Signed in as ada" once the daemon has said whose token this is (GET /api/family/me). */
function SignedInAs() {
  const session = useFamilySession();
  if (!session.data) return null;
  return (
    <span className="self-center text-xs text-muted-foreground">
      Signed in as <span className="font-medium text-foreground">{session.data.name}</span>
    </span>
  );
}

/**
 * The family-only area (docs/product.md#other-screens, docs/product.md#roles): the login form until a token
 * is stored, then the tabs.
 */
export function UniversityPage() {
  const { tab = '' } = useParams();
  const token = useAuthToken();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);

  // The daemon refused the token (expired or revoked; lib/api.ts removed it): sign in again.
  useAuthExpired(() => {
    forgetFamilyData(queryClient);
    void navigate(APP_PATHS.login, { state: { expired: true } satisfies LoginLocationState });
  });

  // docs/product.md#routes-and-navigation: only the tabs of docs/product.md#other-screens exist; any other
  // /university/<x> is an unknown page.
  if (!isUniversityTab(tab)) return <NotFoundPage />;

  // docs/product.md#live-state: POST /api/logout revokes the token, then it is removed and the user goes to
  // /login. The local sign-out happens even when the daemon cannot be told: the user asked to leave.
  const logout = async () => {
    setLeaving(true);
    try {
      await forgeClient.request('logout');
    } catch {
      /* already revoked, expired or unreachable: nothing more to undo here */
    } finally {
      setLeaving(false);
      clearAuthToken();
      forgetFamilyData(queryClient);
      void navigate(APP_PATHS.login);
    }
  };

  return (
    <PageFrame
      title="University"
      description="The family-only control area."
      actions={
        <>
          <Button asChild variant="outline" size="sm">
            <Link to={APP_PATHS.dashboard}>Main Platform</Link>
          </Button>
          {token ? (
            <>
              <SignedInAs />
              <Button variant="ghost" size="sm" disabled={leaving} onClick={() => void logout()}>
                <LogOut />
                Logout
              </Button>
            </>
          ) : null}
        </>
      }
    >
      {token ? (
        <>
          <nav aria-label="University" className="flex gap-1 overflow-x-auto border-b">
            {UNIVERSITY_TABS.map((t) => (
              <NavLink
                key={t.tab}
                to={universityPath(t.tab)}
                end
                className={({ isActive }) =>
                  cn(
                    '-mb-px shrink-0 border-b-2 px-3 py-1.5 text-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring/60',
                    isActive ? 'border-foreground text-foreground' : 'border-transparent',
                  )
                }
              >
                {t.label}
              </NavLink>
            ))}
          </nav>
          {TAB_CONTENT[tab]()}
        </>
      ) : (
        <div className="flex justify-center py-4">
          {/* Signing in here keeps the user on the tab they asked for. */}
          <LoginForm />
        </div>
      )}
    </PageFrame>
  );
}
