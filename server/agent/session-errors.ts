import { CodedError } from '../errors/coded-error.js';
/*
 * The errors an AgentSession throws for requests it refuses. Each carries the `code` the server
 * maps to a protocol error (server/errors/error-catalog.ts), so clients get a clear answer.
 */

export class SessionBusyError extends CodedError {
  readonly code = 'session_busy';
  constructor(message = 'The session is running; wait for it to finish or abort it first') {
    super(message);
  }
}

export class UnknownModelError extends CodedError {
  readonly code = 'unknown_model';
}

export class InvalidRequestError extends CodedError {
  readonly code = 'invalid_request';
}

/** A feature this build or configuration does not offer (compaction, branch summaries). */
export class NotSupportedError extends CodedError {
  readonly code = 'not_supported';
}
