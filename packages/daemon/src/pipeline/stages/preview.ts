import { formatCommand, type Blueprint } from '@forge/shared';
import type { BuildRepo } from '../../features/builds/repo.ts';
import type { PreviewRegistry } from '../../features/preview/preview-registry.ts';
import { failure, type Stage } from './types.ts';

export interface PreviewInput {
  blueprint: Blueprint;
  /** What to serve (a static site or build output), or where a server app runs. */
  root: string;
}

/**
 * PreviewBot: serve the output at its own origin, or start a server app (its `start` command with
 * PORT) and wait for it to answer. Records the preview URL.
 */
export function previewStage(deps: {
  previews: PreviewRegistry;
  repo: Pick<BuildRepo, 'setPreviewPid'>;
  sandbox: boolean;
}): Stage<PreviewInput, string> {
  const { previews, repo } = deps;
  return {
    step: 'preview',
    bot: 'PreviewBot',
    label: (projectName) => `preview ${projectName}`,
    async run(ctx, { blueprint: bp, root }) {
      let url: string;
      try {
        if (bp.kind !== 'server') {
          repo.setPreviewPid(ctx.projectName, null);
          url = (await previews.serveStatic(ctx.projectName, root)).url;
        } else {
          ctx.log('info', `$ ${formatCommand(bp.start!)}`);
          const started = await previews.runServer(ctx.projectName, {
            argv: bp.start!,
            cwd: root,
            env: bp.env,
            signal: ctx.signal,
            sandbox: deps.sandbox,
            onLine: (line) => ctx.output(line.stream, line.text),
          });
          repo.setPreviewPid(ctx.projectName, started.pid);
          url = started.url;
        }
      } catch (err) {
        const message = `The app did not start: ${(err as Error).message}`;
        return {
          ok: false,
          failure: failure('failed', 'PREVIEW_FAILED', message),
          detail: (err as Error).message,
        };
      }
      ctx.record({ previewUrl: url });
      ctx.log('success', `Preview at ${url}`);
      return { ok: true, value: url, detail: url };
    },
  };
}
