import { CodedError } from '../errors/coded-error.js';
/*
 * The store's refusals of a change to a session, each with the `code` the error catalog maps to a
 * protocol error (server/errors/error-catalog.ts), in words a person can act on. The store is where
 * an entry's existence and kind are checked; the layers above pass requests through.
 */

/** No entry (or only a leaf marker) has this id in the session. */
export class EntryNotFoundError extends CodedError {
  readonly code = 'entry_not_found';
  constructor(id: string) {
    super(`No entry ${id} in this session.`);
  }
}

/** The entry exists but the change does not apply to it, or the value is refused. */
export class EntryChangeRefused extends CodedError {
  readonly code = 'invalid_request';
}
