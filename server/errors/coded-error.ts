import type { ErrorCode } from '../../shared/protocol.js';

/*
 * The codes the server's parts give their refusals, each mapped here to the protocol's code a client
 * sees. A part's error extends CodedError, whose `code` must be a key of this table: a new code
 * that is not mapped does not compile (and eslint refuses a `code` on an error class that does not
 * extend CodedError), so no refusal silently reaches a client as `internal`. `internal` is written
 * out where a code's message names paths or processes and must stay in the log.
 */
export const PART_ERROR_CODES = {
  session_busy: 'session_busy',
  unknown_model: 'invalid_argument',
  invalid_request: 'invalid_argument',
  invalid_settings: 'invalid_argument',
  not_supported: 'unavailable',
  nothing_to_compact: 'invalid_argument',
  compaction_aborted: 'conflict',
  compaction_freed_no_room: 'conflict',
  summary_request_too_large: 'conflict',
  entry_not_found: 'not_found',
  session_locked: 'conflict',
  session_changed: 'conflict',
  // A workspace folder swapped for a link since the server started (workspace-path.ts).
  outside_workspace: 'conflict',
  // A session path that names a FIFO, a device or a socket (regular-file.ts).
  not_a_regular_file: 'conflict',
  // Start-up refusals: the command line prints them; their messages name files.
  model_config_invalid: 'internal',
  data_dir_locked: 'internal',
  not_a_session_file: 'internal',
} as const satisfies Record<string, ErrorCode>;

export type PartErrorCode = keyof typeof PART_ERROR_CODES;

/** An error a part throws for a request it refuses, with the code the catalog maps. */
export abstract class CodedError extends Error {
  abstract readonly code: PartErrorCode;
}
