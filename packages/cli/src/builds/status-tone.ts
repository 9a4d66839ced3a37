import type { Tone } from '../terminal.ts';

/** A build status's colour (its own module: `forge builds` needs it without build-result's imports). */
export function statusTone(status: string): Tone | undefined {
  switch (status) {
    case 'succeeded':
      return 'good';
    case 'queued':
    case 'running':
      return 'warn';
    case 'failed':
    case 'timed-out':
      return 'bad';
    case 'cancelled':
    case 'interrupted':
      return 'dim';
    default:
      return undefined;
  }
}
