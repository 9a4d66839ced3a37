import { z } from 'zod';
import { BOT_CATEGORIES } from './bot-roster.ts';

export * from './bot-roster.ts';

export const BotCategory = z.enum(BOT_CATEGORIES);
export type BotCategory = z.infer<typeof BotCategory>;

/** Bot status (docs/product.md#entities): active, building, error; anything else is shown neutral. */
export const BotStatus = z.string();
export type BotStatus = 'active' | 'building' | 'error' | 'idle' | (string & {});

export const Bot = z.object({
  /** Unique bot name, e.g. "BuildBot". */
  name: z.string(),
  category: BotCategory,
  /** active | building | error | other (neutral). */
  status: z.string(),
  description: z.string(),
});
export type Bot = z.infer<typeof Bot>;

/** Nav "Bot Activity" row (docs/product.md#entities): online is green, pending yellow, anything else red. */
export const BotActivity = z.object({
  type: z.string(),
  count: z.number().int().nonnegative(),
  status: z.string(),
});
export type BotActivity = z.infer<typeof BotActivity>;

export const BotStatusResponse = z.object({
  /** One reading of the status call checks only this flag. */
  success: z.boolean(),
  activities: z.array(BotActivity),
});
export type BotStatusResponse = z.infer<typeof BotStatusResponse>;

export const BotActionBody = z.object({
  botName: z.string().min(1),
  /** The project the bot's job acts on; default the current one. */
  project: z.string().min(1).optional(),
});
export type BotActionBody = z.infer<typeof BotActionBody>;
export const BotActionResponse = z.object({ ok: z.boolean(), botName: z.string(), message: z.string() });
export type BotActionResponse = z.infer<typeof BotActionResponse>;
