import type { Command } from 'commander';
import type { Deps } from './deps.ts';

/** A command's behaviour: resolves with its exit code (0 when it returns nothing). */
export type Run<O> = (deps: Deps, opts: O) => Promise<number | void>;

/**
 * Runs a command's `run` with freshly built deps. Commands call it from their commander action, so
 * the heavy deps module is only loaded once a command actually runs.
 */
export type Invoke = <O>(command: Command, run: Run<O>, opts: O) => Promise<void>;
