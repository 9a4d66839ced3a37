import {
  Database,
  File,
  FileArchive,
  FileBraces,
  FileCode,
  FileCog,
  FileImage,
  FileLock,
  FileTerminal,
  FileText,
  FileType,
  Folder,
  FolderOpen,
  Globe,
  Palette,
  type LucideIcon,
} from 'lucide-react';
import { fileExtension } from '@forge/shared/schema-free';
import { baseName } from './tree.ts';

const BY_EXTENSION: Record<string, LucideIcon> = {
  ts: FileCode,
  tsx: FileCode,
  mts: FileCode,
  cts: FileCode,
  js: FileCode,
  jsx: FileCode,
  mjs: FileCode,
  cjs: FileCode,
  py: FileCode,
  vue: FileCode,
  svelte: FileCode,
  json: FileBraces,
  jsonc: FileBraces,
  css: Palette,
  scss: Palette,
  sass: Palette,
  less: Palette,
  html: Globe,
  htm: Globe,
  md: FileText,
  mdx: FileText,
  txt: FileText,
  sql: Database,
  png: FileImage,
  jpg: FileImage,
  jpeg: FileImage,
  gif: FileImage,
  svg: FileImage,
  webp: FileImage,
  ico: FileImage,
  avif: FileImage,
  zip: FileArchive,
  gz: FileArchive,
  tgz: FileArchive,
  sh: FileTerminal,
  bash: FileTerminal,
  yml: FileCog,
  yaml: FileCog,
  toml: FileCog,
  ini: FileCog,
  env: FileCog,
  lock: FileLock,
  woff: FileType,
  woff2: FileType,
  ttf: FileType,
  otf: FileType,
};

/** Lockfiles and dotfiles whose "extension" says nothing useful. */
const BY_NAME: Record<string, LucideIcon> = {
  'package-lock.json': FileLock,
  'pnpm-lock.yaml': FileLock,
  'yarn.lock': FileLock,
  '.gitignore': FileCog,
  '.env': FileCog,
  '.npmrc': FileCog,
  dockerfile: FileCog,
};

/**
 * The icon of a file by its name and extension (docs/product.md#file-tree-and-explorer), or of a folder by
 * its state.
 */
export function fileIcon(path: string, type: 'file' | 'folder' = 'file', open = false): LucideIcon {
  if (type === 'folder') return open ? FolderOpen : Folder;
  const name = baseName(path).toLowerCase();
  return BY_NAME[name] ?? BY_EXTENSION[fileExtension(name)] ?? File;
}
