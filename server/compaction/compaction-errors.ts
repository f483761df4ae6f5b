import { CodedError } from '../errors/coded-error.js';
/*
 * Errors compaction reports to the session and, through it, to the user.
 */

/** Thrown by the threshold check to stop a turn that compaction cannot help. */
export class CompactionLoopError extends CodedError {
  readonly code = 'compaction_freed_no_room';
  constructor(
    readonly tokensBefore: number,
    readonly tokensAfter: number,
  ) {
    super(
      `Compaction freed no room (about ${tokensBefore} tokens before, ${tokensAfter} after), so this turn stops here instead of compacting again. Start a new branch, shorten the latest message, or switch to a model with a larger context window.`,
    );
    this.name = 'CompactionLoopError';
  }
}
