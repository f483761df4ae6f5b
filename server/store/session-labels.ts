import { EntryChangeRefused, EntryNotFoundError } from './entry-errors.js';
import { buildEntry, sessionNameOf } from './entry-factory.js';
import type { EntryLog } from './entry-log.js';

/*
 * Labels and the session's name: each one an appended entry (the latest wins, as in pi), told to
 * listeners after its `entry_appended` as `label_changed` or `session_info_changed`.
 */

/** Sets an entry's label, trimmed (blank or undefined: clears it); refuses an unknown id. */
export function appendLabelChange(
  log: EntryLog,
  targetId: string,
  label: string | undefined,
): string {
  const target = log.index.byId.get(targetId);
  if (!target || target.marker) throw new EntryNotFoundError(targetId);
  const trimmed = label?.trim() || undefined;
  const id = log.append(buildEntry.label(log.base(), targetId, trimmed));
  log.emit({ type: 'label_changed', targetId, label: trimmed });
  return id;
}

/** Names the session as pi 1.6 writes names (sessionNameOf); refuses a name left empty. */
export function appendSessionInfo(log: EntryLog, name: string): string {
  if (!sessionNameOf(name)) throw new EntryChangeRefused('A session name cannot be empty.');
  const id = log.append(buildEntry.sessionInfo(log.base(), name));
  log.emit({ type: 'session_info_changed', name: log.index.sessionName });
  return id;
}
