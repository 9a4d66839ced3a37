import { CliError } from './output.ts';

/** Open `url` in the user's browser; the `open` package loads only when a command opens something. */
export async function openInBrowser(url: string): Promise<void> {
  try {
    const { default: open } = await import('open');
    await open(url);
  } catch (err) {
    throw new CliError(`Could not open a browser: ${(err as Error).message}`, {
      hint: 'Open the URL above yourself.',
    });
  }
}
