import { z } from 'zod';
import { STAGES } from './stage-labels.ts';

export * from './stage-labels.ts';

export const Stage = z.enum(STAGES);
export type Stage = z.infer<typeof Stage>;
