import { useContext, type Context } from 'react';

/** The value of a context its provider must give: a hook used outside the provider is a bug, said so. */
export function useRequiredContext<T>(context: Context<T | null>, hook: string, provider: string): T {
  const value = useContext(context);
  if (!value) throw new Error(`${hook} must be used inside <${provider}>`);
  return value;
}
