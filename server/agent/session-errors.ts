/*
 * The errors an AgentSession throws for requests it refuses. Each carries the `code` the server
 * maps to a protocol error (server/errors/error-catalog.ts), so clients get a clear answer.
 */

export class SessionBusyError extends Error {
  readonly code = 'session_busy';
  constructor(message = 'The session is running; wait for it to finish or abort it first') {
    super(message);
  }
}

export class UnknownModelError extends Error {
  readonly code = 'unknown_model';
}

export class InvalidRequestError extends Error {
  readonly code = 'invalid_request';
}

/** A feature this build or configuration does not offer (compaction, branch summaries). */
export class NotSupportedError extends Error {
  readonly code = 'not_supported';
}
