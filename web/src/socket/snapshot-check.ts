import { SnapshotSchema, type SessionSnapshot } from '../../../shared/protocol';

/*
 * A snapshot frame, tree and all, is checked by its zod schema before the page takes it in: a
 * malformed one is refused with the first problem found, so the page only ever holds a snapshot
 * of the right shape.
 */

export type SnapshotCheck =
  { ok: true; snapshot: SessionSnapshot } | { ok: false; problem: string };

/** The snapshot frame, parsed; a malformed one is refused with the first problem found. */
export function parseSnapshot(json: unknown): SnapshotCheck {
  const parsed = SnapshotSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      problem: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid snapshot'}`,
    };
  }
  return { ok: true, snapshot: parsed.data };
}
