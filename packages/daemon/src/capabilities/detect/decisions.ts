import path from 'node:path';
import type { BlueprintDecision } from '@forge/shared';

/** The plan's evidence, in the order the decisions were made. */
export class DecisionLog {
  readonly list: BlueprintDecision[] = [];

  /**
   * @param folder Project-relative folder the evidence files are relative to, for an app in a
   * subfolder: its rules name `package.json`, the plan names `apps/web/package.json`.
   */
  constructor(
    private readonly folder = '.',
    /**
     * Files the folder's rules name that are the project root's: an Nx project without a package.json
     * of its own is planned with the root's dependencies, so "package.json" is the root's.
     */
    private readonly rootFiles: ReadonlySet<string> = new Set(),
  ) {}

  /** Record that `field` became `value` because of `rule`, seen in `file` (null: a default). */
  add(field: string, value: string, file: string | null, rule: string): void {
    const evidence =
      file === null || this.folder === '.' || this.rootFiles.has(file)
        ? file
        : path.posix.join(this.folder, file);
    this.list.push({ field, value, file: evidence, rule });
  }

  /**
   * This log, for rules that name files of another folder: `rel` from this log's folder ("..": its
   * parent), so "pyproject.toml" read there is named as the project's file it is.
   */
  under(rel: string): DecisionLog {
    if (rel === '.') return this;
    const view = Object.create(this) as DecisionLog;
    view.add = (field, value, file, rule) =>
      this.add(field, value, file === null ? null : path.posix.join(rel, file), rule);
    return view;
  }

  /** Append another log's decisions (already project-relative), e.g. the chosen app's. */
  append(other: DecisionLog): void {
    this.list.push(...other.list);
  }
}
