import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { LogIn } from 'lucide-react';
import { storeAuthToken } from '@/lib/auth.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { loginErrorDetail, loginErrorText } from '../login-error.ts';
import { requestLogin } from '../login-request.ts';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';

type Field = 'username' | 'password';

/**
 * The university sign-in (docs/product.md#other-screens). Both fields are required; on success the token is
 * stored as `authToken` and `onSignedIn` runs. Used by /login and in place of the university when signed out.
 */
export function LoginForm({ onSignedIn, notice }: { onSignedIn?: () => void; notice?: string }) {
  const id = useId();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState<ReadonlySet<Field>>(new Set());
  const login = useMutation({
    mutationFn: requestLogin,
    onSuccess: ({ token }) => {
      storeAuthToken(token);
      onSignedIn?.();
    },
  });

  // A "required" note goes away as soon as the field has something in it.
  const filled = (field: Field) =>
    setMissing((current) => {
      if (!current.has(field)) return current;
      const next = new Set(current);
      next.delete(field);
      return next;
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const empty = new Set<Field>();
    if (!username.trim()) empty.add('username');
    if (!password) empty.add('password');
    setMissing(empty);
    if (empty.size > 0) return;
    login.mutate({ username: username.trim(), password });
  };

  const fieldError = (field: Field, label: string) =>
    missing.has(field) ? (
      <p id={`${id}-${field}-error`} className="text-xs text-error">
        {label} is required.
      </p>
    ) : null;

  const detail = login.isError ? loginErrorDetail(login.error) : null;

  return (
    <Card className="w-full max-w-sm">
      <CardHeader>
        <CardTitle>Sign in</CardTitle>
        <CardDescription>Family access required</CardDescription>
      </CardHeader>
      {notice ? (
        <p role="status" className="mx-6 -mt-2 mb-2 text-sm text-muted-foreground">
          {notice}
        </p>
      ) : null}
      <CardContent>
        <form noValidate onSubmit={submit} className="flex flex-col gap-3" aria-label="Login">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-username`}>Username</Label>
            <Input
              id={`${id}-username`}
              name="username"
              autoComplete="username"
              required
              aria-invalid={missing.has('username') || undefined}
              aria-describedby={missing.has('username') ? `${id}-username-error` : undefined}
              value={username}
              onChange={(e) => {
                setUsername(e.target.value);
                if (e.target.value.trim()) filled('username');
              }}
            />
            {fieldError('username', 'Username')}
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-password`}>Password</Label>
            <Input
              id={`${id}-password`}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              aria-invalid={missing.has('password') || undefined}
              aria-describedby={missing.has('password') ? `${id}-password-error` : undefined}
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                if (e.target.value) filled('password');
              }}
            />
            {fieldError('password', 'Password')}
          </div>
          {login.isError ? (
            <div role="alert" className="flex flex-col gap-0.5 rounded-md border border-error/40 px-3 py-2">
              <p className="text-sm text-error">{loginErrorText(login.error)}</p>
              {detail ? (
                <p className="font-mono text-xs break-words text-muted-foreground">{detail}</p>
              ) : null}
            </div>
          ) : null}
          <Button type="submit" disabled={login.isPending} className="mt-1">
            <LogIn />
            {login.isPending ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
