import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import { register as registerLogs } from './daemon-logs.ts';
import { register as registerRun } from './daemon-run.ts';
import { register as registerStart } from './daemon-start.ts';
import { register as registerStatus } from './daemon-status.ts';
import { register as registerStop } from './daemon-stop.ts';

/** `forge daemon …`: manage the daemon of this machine (the one whose state lives in FORGE_HOME). */
export function register(program: Command, invoke: Invoke): void {
  const daemon = program
    .command('daemon')
    .description('start, stop and inspect the Forge daemon of this machine (FORGE_HOME)');
  registerStart(daemon, invoke);
  registerRun(daemon, invoke);
  registerStop(daemon, invoke);
  registerStatus(daemon, invoke);
  registerLogs(daemon, invoke);
}
