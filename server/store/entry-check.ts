import { z } from 'zod';
import { SessionEntrySchema } from '../../shared/session-entries.js';

/*
 * The check of an entry's body as the store reads it: `SessionEntrySchema`, compiled by zod ahead
 * of time (`z.compile`) when the store's code loads. The schema stays the one place an entry's
 * shape is written down; compiling only changes how it runs. zod generates one function for the
 * whole union, and `z.validate` runs it without building the parsed copy that `safeParse` makes
 * (the store keeps the object JSON.parse gave, so every key and its order survive).
 *
 * Why at load, not on first use (docs/decisions/070-open-time.md, fifth round): the compilation
 * takes ~20 ms once per process; the generic parser's own first use costs about as much, inside
 * the first open. Compiled at load, a big session's first open checks its ~550 bodies in ~4 ms
 * instead of ~20, and every later read in ~2 ms instead of ~8.
 */
const COMPILED_ENTRY = z.compile(SessionEntrySchema);

/** True when `value` is an entry `SessionEntrySchema` accepts (the same answer as `safeParse`). */
export function isSessionEntry(value: unknown): boolean {
  return z.validate(COMPILED_ENTRY, value);
}
