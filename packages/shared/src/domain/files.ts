import { z } from 'zod';

export * from './file-language.ts';

/** A file tree node (docs/product.md#entities); `size` is set on files for the explorer's size labels. */
export interface FileNode {
  name: string;
  /** Path relative to the project root, forward slashes, no leading slash. */
  path: string;
  type: 'file' | 'folder';
  children?: FileNode[];
  content?: string;
  size?: number;
  /**
   * Set on a folder whose children are not listed: `ignored` for node_modules, .git and the build
   * output folder; `limit` when the tree reached MAX_TREE_NODES before this folder.
   */
  folded?: 'ignored' | 'limit';
}
export const FileNode: z.ZodType<FileNode> = z
  .lazy(() =>
    z.object({
      name: z.string(),
      path: z.string(),
      type: z.enum(['file', 'folder']),
      children: z.array(FileNode).optional(),
      content: z.string().optional(),
      size: z.number().int().nonnegative().optional(),
      folded: z.enum(['ignored', 'limit']).optional(),
    }),
  )
  .meta({ id: 'FileNode' });

export const FileStructureResponse = z.object({
  /** The project the tree belongs to; empty when there is no project at all. */
  projectName: z.string(),
  tree: z.array(FileNode),
  /** True when the tree was cut at MAX_TREE_NODES nodes (folders past the cut have `folded: 'limit'`). */
  truncated: z.boolean().optional(),
});
export type FileStructureResponse = z.infer<typeof FileStructureResponse>;

export const FileContentQuery = z.object({ path: z.string().min(1), project: z.string().optional() });
export const FileContentResponse = z.object({ path: z.string(), content: z.string() });
export type FileContentResponse = z.infer<typeof FileContentResponse>;

/** Which project a file call is about; the current project (most recently uploaded or built) when absent. */
const project = z.string().min(1).optional();
export const FileSaveBody = z.object({ path: z.string().min(1), content: z.string(), project });
export const FileDeleteBody = z.object({ path: z.string().min(1), project });
/** POST /api/files/create accepts both body forms of docs/product.md#http-calls. */
export const FileCreateBody = z.union([
  z.object({
    type: z.enum(['file', 'folder']),
    name: z.string().trim().min(1),
    parentPath: z.string().default(''),
    project,
  }),
  z.object({ path: z.string().trim().min(1), content: z.string().default(''), project }),
]);
export type FileCreateBody = z.input<typeof FileCreateBody>;
/** Rename or move a file or folder inside the project (a real rename, not only a prompt). */
export const FileRenameBody = z.object({ from: z.string().min(1), to: z.string().trim().min(1), project });
export const FileOpResponse = z.object({ ok: z.literal(true), path: z.string() });
export type FileOpResponse = z.infer<typeof FileOpResponse>;

/** An open editor file (docs/product.md#entities); `path` is absent for a new unsaved file. */
export const OpenEditorFile = z.object({
  name: z.string(),
  content: z.string(),
  language: z.string(),
  icon: z.string(),
  path: z.string().optional(),
});
export type OpenEditorFile = z.infer<typeof OpenEditorFile>;
