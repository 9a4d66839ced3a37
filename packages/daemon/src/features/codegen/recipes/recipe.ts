import type { CodeKind } from '@forge/shared';
import type { Emitted, Language } from '../emit-common.ts';
import type { Desc } from './describe.ts';

/**
 * One entry of the catalogue: a real implementation of something developers ask for, written
 * through the compiler's printer (ts-template.ts). `match` says whether the description asks for
 * it; `vocabulary` lists every word the recipe explains, so that a description asking for more
 * than the recipe does is declined rather than answered with a different computation.
 */
export interface Recipe {
  id: string;
  kinds: readonly CodeKind[];
  /** What the code does, in words: the `reason` of an implemented answer. */
  summary: string;
  match(d: Desc): boolean;
  vocabulary: RegExp;
  /**
   * Which of the description's fields the recipe uses, and so explains: `all` (a form's inputs, a
   * table's columns), or only `collections` (the array it works over, e.g. `users: User[]`). A
   * field the recipe would ignore is a word it cannot explain.
   */
  fields: 'all' | 'collections';
  build(d: Desc, language: Language): Emitted;
  /**
   * Calls of the built function and what they return (JSON values), for checking a model's code
   * written for the same description.
   */
  examples?: (d: Desc) => Array<{ args: unknown[]; returns: unknown }>;
}
