/** Opens a URL in the user's browser. Resolves once the opener started; prints nothing. */
export type OpenUrl = (url: string) => Promise<void>;

/**
 * The `open` package, loaded on first use. It starts the platform's opener (xdg-open, open,
 * start) detached with its output ignored: nothing may be written to the terminal while the
 * dashboard owns the alternate screen.
 */
export const openInBrowser: OpenUrl = async (url) => {
  const { default: open } = await import('open');
  await open(url);
};

/** The workspace URL; with a token, `?token=` lets the daemon set its auth cookie on first load. */
export function workspaceUrl(baseUrl: string, token: string | undefined): string {
  const url = new URL(`${baseUrl}/`);
  if (token) url.searchParams.set('token', token);
  return url.toString();
}
