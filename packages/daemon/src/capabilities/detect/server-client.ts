/**
 * A Node server with a client it builds (a chat server whose Vite client is built into public/): the
 * project's production `start` runs a Node program, and a client bundler (Vite, Create React App,
 * Vue CLI, Parcel) builds what it serves. Served as a static site, the client would have no server
 * behind it; so it is a server app: build, then start. A start that is a dev server, a static file
 * server (`serve -s dist`, `http-server`, `sirv`) or anything but a Node program leaves the project
 * to the bundler's static rule.
 */
import { formatCommand } from '@forge/shared';
import {
  decide,
  firstDep,
  productionStart,
  withBuild,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';
import { PACKAGE_JSON } from './package-json.ts';
import { commandsOfScript, type ScriptCommand } from './script-commands.ts';

/** Server libraries, to name the framework of a server app. */
const SERVER_LIBRARIES: readonly { dep: string; framework: string }[] = [
  { dep: '@nestjs/core', framework: 'nest' },
  { dep: 'express', framework: 'express' },
  { dep: 'fastify', framework: 'fastify' },
  { dep: 'koa', framework: 'koa' },
  { dep: '@hapi/hapi', framework: 'hapi' },
  { dep: 'hono', framework: 'hono' },
];

/** The server library a server app uses, as its framework id ("node" when none), with the rule. */
export function serverLibrary(ctx: FrameworkContext): { framework: string; rule: string | null } {
  const library = firstDep(
    ctx,
    SERVER_LIBRARIES.map((s) => s.dep),
  );
  return {
    framework: SERVER_LIBRARIES.find((s) => s.dep === library?.name)?.framework ?? 'node',
    rule: library?.rule ?? null,
  };
}

/** Client bundlers whose static rule would otherwise take the project, with their build command. */
const CLIENT_BUNDLERS: readonly {
  dep: string;
  label: string;
  build: { bin: string; args: string[] } | null;
}[] = [
  { dep: 'vite', label: 'Vite', build: { bin: 'vite', args: ['build'] } },
  { dep: 'react-scripts', label: 'Create React App', build: { bin: 'react-scripts', args: ['build'] } },
  { dep: '@vue/cli-service', label: 'Vue CLI', build: { bin: 'vue-cli-service', args: ['build'] } },
  { dep: 'parcel', label: 'Parcel', build: null },
];

/** Runners of a Node program: `node index start`, `tsx server.ts`, `nest start`, `fastify start app.js`. */
function nodeProgram(command: ScriptCommand): boolean {
  const program = command.args.find((a) => !a.startsWith('-'));
  switch (command.bin) {
    case 'node':
    case 'tsx':
    case 'ts-node':
    case 'ts-node-esm':
    case 'babel-node':
    case 'pm2-runtime':
      return program !== undefined;
    case 'nest':
    case 'fastify':
      return program === 'start';
    default:
      return false;
  }
}

export function detectServerWithClient(ctx: FrameworkContext): FrameworkPlan | null {
  const bundler = CLIENT_BUNDLERS.find((b) => ctx.pkg.depField(b.dep));
  if (!bundler) return null;
  const start = productionStart(ctx);
  if (!start) return null;
  // The chosen script (`start`, or `start:prod` when start is a dev server) runs a Node program; or
  // start was a watcher of one file and Forge runs that file with node (framework-context.ts).
  const script = start.argv[1] === 'run' ? start.argv[2] : undefined;
  const server = script
    ? commandsOfScript(script, ctx.pkg.scripts).find(nodeProgram)?.text
    : start.argv[0] === 'node'
      ? formatCommand(start.argv)
      : undefined;
  if (!server) return null;

  const library = serverLibrary(ctx);
  const bundlerRule = firstDep(ctx, [bundler.dep])!.rule;
  decide(
    ctx,
    library.framework,
    'server',
    PACKAGE_JSON,
    `the "start" script runs a Node server (${server})${library.rule ? ` with ${library.rule}` : ''}, and ${bundlerRule} builds the client it serves: build, then start the server`,
  );
  ctx.log.add('start', formatCommand(start.argv), PACKAGE_JSON, start.rule);
  ctx.log.add('outputDir', 'none', PACKAGE_JSON, 'the server serves the built client itself');
  return withBuild(
    ctx,
    { framework: library.framework, kind: 'server', outputDir: null, start: start.argv },
    bundler.build ? { ...bundler.build, label: bundler.label } : null,
  );
}
