import type { FileNode, Project } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import type { RouteHandler, RouteRequest } from '@/test/render-panel.tsx';

export const PROJECT = 'Forge';

export const project = (name = PROJECT): Project => ({
  name,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: null,
  hasArtifact: false,
});

const notFound = () =>
  json({ error: 'There is no file or folder at that path.', code: 'FILE_NOT_FOUND' }, 404);

/**
 * The daemon's /api/files/* over an in-memory project, answering like the real routes (one project,
 * "Forge"). `fail` makes a route answer 500 with the given message. Tests read `files` for the disk.
 */
export function fakeFiles(initial: Record<string, string>, options: { folders?: string[] } = {}) {
  const files = new Map(Object.entries(initial));
  const folders = new Set(options.folders ?? []);
  const fail = new Map<string, string>();

  const allFolders = () => {
    const all = new Set(folders);
    for (const path of files.keys()) {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) all.add(parts.slice(0, i).join('/'));
    }
    return all;
  };

  const tree = (): FileNode[] => {
    const build = (parent: string): FileNode[] => {
      const prefix = parent ? `${parent}/` : '';
      const direct = (p: string) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/');
      const dirs = [...allFolders()].filter(direct).map((path): FileNode => ({
        name: path.slice(prefix.length),
        path,
        type: 'folder',
        children: build(path),
      }));
      const leaves = [...files.keys()].filter(direct).map((path): FileNode => ({
        name: path.slice(prefix.length),
        path,
        type: 'file',
        size: new TextEncoder().encode(files.get(path)).length,
      }));
      return [...dirs, ...leaves];
    };
    return build('');
  };

  const move = (from: string, to: string) => {
    for (const [path, content] of [...files]) {
      if (path === from || path.startsWith(`${from}/`)) {
        files.delete(path);
        files.set(to + path.slice(from.length), content);
      }
    }
    for (const path of [...folders]) {
      if (path === from || path.startsWith(`${from}/`)) {
        folders.delete(path);
        folders.add(to + path.slice(from.length));
      }
    }
  };

  const handler: RouteHandler = (request: RouteRequest) => {
    const { method, url } = request;
    const body = (request.body ?? {}) as Record<string, string>;
    if (method === 'GET' && url.pathname === '/api/projects') return json([project()]);
    if (!url.pathname.startsWith('/api/files/')) return undefined;
    const route = `${method} ${url.pathname}`;
    const failure = fail.get(route);
    if (failure !== undefined) return json({ error: failure, code: 'INTERNAL' }, 500);
    switch (route) {
      case 'GET /api/files/structure':
        return json({ projectName: PROJECT, tree: tree() });
      case 'GET /api/files/content': {
        const path = url.searchParams.get('path') ?? '';
        const content = files.get(path);
        return content === undefined ? notFound() : json({ path, content });
      }
      case 'POST /api/files/save':
        files.set(body.path!, body.content!);
        return json({ ok: true, path: body.path });
      case 'POST /api/files/create': {
        const path = body.path ?? (body.parentPath ? `${body.parentPath}/${body.name}` : body.name!);
        if (files.has(path) || allFolders().has(path)) {
          return json({ error: 'A file or folder with that name already exists.', code: 'FILE_EXISTS' }, 409);
        }
        if (body.type === 'folder') folders.add(path);
        else files.set(path, body.content ?? '');
        return json({ ok: true, path });
      }
      case 'DELETE /api/files/delete':
        if (!files.has(body.path!) && !allFolders().has(body.path!)) return notFound();
        for (const path of [...files.keys()])
          if (path === body.path || path.startsWith(`${body.path}/`)) files.delete(path);
        for (const path of [...folders])
          if (path === body.path || path.startsWith(`${body.path}/`)) folders.delete(path);
        return json({ ok: true, path: body.path });
      case 'POST /api/files/rename':
        move(body.from!, body.to!);
        return json({ ok: true, path: body.to });
      default:
        return notFound();
    }
  };

  return { files, folders, tree, handler, fail };
}
