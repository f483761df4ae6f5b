import type { ErrorBody, ErrorCode } from '../../shared/protocol.js';
import { CodedError, PART_ERROR_CODES } from './coded-error.js';
import { STORAGE_MESSAGES, storageProblem } from './storage-errors.js';

/*
 * The one catalog of errors a client can see, over HTTP and WebSocket alike: a stable code, an HTTP
 * status and a default message. Anything thrown that is not an ArborError reaches the client as
 * `internal` with a generic message; the full error goes to the log.
 */

export const ERROR_CATALOG: Record<ErrorCode, { status: number; message: string }> = {
  bad_frame: { status: 400, message: 'The frame is not a JSON object with a known "type".' },
  unknown_command: { status: 400, message: 'Unknown command.' },
  invalid_argument: { status: 400, message: 'Invalid argument.' },
  hello_required: { status: 400, message: 'The first frame must be "hello".' },
  protocol_version: { status: 400, message: 'Unsupported protocol version.' },
  unauthorized: { status: 401, message: 'Log in first.' },
  forbidden: { status: 403, message: 'You may not do this.' },
  not_found: { status: 404, message: 'Not found.' },
  session_busy: { status: 409, message: 'The session is running; wait, steer or abort.' },
  not_subscribed: { status: 409, message: 'Subscribe to the session first.' },
  conflict: { status: 409, message: 'Conflict.' },
  payload_too_large: { status: 413, message: 'Too large.' },
  rate_limited: { status: 429, message: 'Too many requests; slow down.' },
  unavailable: { status: 503, message: 'Not available on this server.' },
  disk_full: { status: 507, message: STORAGE_MESSAGES.disk_full },
  read_only: { status: 503, message: STORAGE_MESSAGES.read_only },
  internal: { status: 500, message: 'Something went wrong on the server; it has been logged.' },
};

export class ArborError extends Error {
  override name = 'ArborError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
  ) {
    super(message ?? ERROR_CATALOG[code].message);
    this.status = ERROR_CATALOG[code].status;
  }
}

/**
 * `disk_full` or `read_only` with the catalog's message when `error` is a failed write for want of
 * space or permission (Node's own message names paths, so it is not passed on); else undefined.
 */
export function storageErrorBody(error: unknown): ErrorBody | undefined {
  const problem = storageProblem(error);
  return problem ? { code: problem, message: ERROR_CATALOG[problem].message } : undefined;
}

/**
 * What a client is told about `error`. ArborErrors, and errors of other parts that carry a known
 * `code` (the agent's SessionBusyError, a locked session file, …), keep their message, except that a
 * locked file's message (which names paths and processes) is replaced; the rest become `internal`.
 */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof ArborError) return { code: error.code, message: error.message };
  const storage = storageErrorBody(error);
  if (storage) return storage;
  if (!(error instanceof CodedError)) return internalBody();
  if (error.code === 'session_locked') {
    return {
      code: 'conflict',
      message: 'The session file is in use by another program (pi?); close it there.',
    };
  }
  if (error.code === 'session_changed') {
    return {
      code: 'conflict',
      message:
        'The session file changed on disk since Arbor read it (another program wrote to it); open the session again to see the changes.',
    };
  }
  const code: ErrorCode = PART_ERROR_CODES[error.code];
  if (code === 'internal') return internalBody();
  return { code, message: error.message || ERROR_CATALOG[code].message };
}

function internalBody(): ErrorBody {
  return { code: 'internal', message: ERROR_CATALOG.internal.message };
}

/** True when the error is ours to explain; false when it should be logged as a fault. */
export function isExpectedError(error: unknown): boolean {
  return toErrorBody(error).code !== 'internal';
}
