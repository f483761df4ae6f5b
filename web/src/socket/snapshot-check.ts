import { z } from 'zod';
import { SnapshotSchema, type SessionSnapshot } from '../../../shared/protocol';
import { decodeTree } from '../../../shared/tree-wire';

/*
 * A snapshot carries the session's tree skeleton encoded in columns (shared/tree-wire.ts). The
 * rest of the frame is parsed with its zod schema; the tree is decoded, and checked, by
 * `decodeTree`, so the page only ever holds a `TreeNode[]`.
 */

const SnapshotWithoutTreeSchema = SnapshotSchema.extend({ tree: z.unknown() });

export type SnapshotCheck =
  { ok: true; snapshot: SessionSnapshot } | { ok: false; problem: string };

/** The snapshot frame, parsed and its tree decoded; a malformed one is refused with the first problem found. */
export function parseSnapshot(json: unknown): SnapshotCheck {
  const parsed = SnapshotWithoutTreeSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      problem: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid snapshot'}`,
    };
  }
  const tree = decodeTree(parsed.data.tree);
  if (typeof tree === 'string') return { ok: false, problem: `tree: ${tree}` };
  return { ok: true, snapshot: { ...parsed.data, tree } };
}
