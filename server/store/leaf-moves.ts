import { buildEntry } from './entry-factory.js';
import type { EntryLog } from './entry-log.js';
import { LEAF_MARKER_TYPE } from './session-index.js';

/*
 * Moving a session's leaf (decision 001): a move is persisted with a leaf marker, a custom entry
 * that pi skips, and told as `leaf_moved`; bodies that left the active path may be let go.
 */

/** Moves the leaf to entry `id`, which must exist (a leaf marker is not an entry). */
export function moveLeafTo(log: EntryLog, id: string): void {
  requireEntry(log, id);
  moveLeaf(log, id);
}

/** Moves the leaf before the first entry: the next append starts a new root. */
export function resetLeaf(log: EntryLog): void {
  moveLeaf(log, null);
}

/**
 * Moves the leaf to `branchFromId` (null: the root) and appends a branch_summary there, which
 * becomes the leaf. `fromId` in the entry is the leaf that was left, or "root" (pi 1.6's
 * `branchWithSummary`; pi 0.73 wrote the new parent). No leaf marker and no `leaf_moved`: the
 * summary's own `entry_appended` says where the leaf is.
 */
export function branchWithSummary(
  log: EntryLog,
  branchFromId: string | null,
  summary: string,
  details?: unknown,
  fromHook?: boolean,
): string {
  if (branchFromId !== null) requireEntry(log, branchFromId);
  log.ensureWritable();
  const left = log.leafId ?? 'root';
  log.leafId = branchFromId;
  log.bodies.releaseOffPath(log.index, log.leafId);
  return log.append(
    buildEntry.branchSummary(log.base(branchFromId), left, summary, details, fromHook),
  );
}

function requireEntry(log: EntryLog, id: string): void {
  const record = log.index.byId.get(id);
  if (!record || record.marker) throw new Error(`Entry ${id} not found`);
}

function moveLeaf(log: EntryLog, target: string | null): void {
  if (target === log.leafId) return;
  log.ensureWritable();
  if (log.access.appender) {
    log.write(buildEntry.custom(log.base(target), LEAF_MARKER_TYPE, { leafId: target }));
  }
  log.leafId = target;
  log.bodies.releaseOffPath(log.index, log.leafId);
  log.emit({ type: 'leaf_moved', leafId: target });
}
