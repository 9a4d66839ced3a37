import type { BlueprintDecision } from '@forge/shared';

/** The plan's evidence, in the order the decisions were made. */
export class DecisionLog {
  readonly list: BlueprintDecision[] = [];

  /** Record that `field` became `value` because of `rule`, seen in `file` (null: a default). */
  add(field: string, value: string, file: string | null, rule: string): void {
    this.list.push({ field, value, file, rule });
  }
}
