import { z } from 'zod';
import { SnapshotSchema, type Snapshot } from '../../../shared/protocol';
import type { TreeNode } from '../../../shared/session-entries';

/*
 * A snapshot of a big session carries a tree skeleton of tens of thousands of nodes. Checking it
 * node by node with zod costs more than everything else the page does with it, so the skeleton is
 * parsed here by hand, field by field, exactly as `TreeNodeSchema` states it (the tests hold the
 * two together), and the rest of the snapshot with its zod schema.
 */

const SnapshotWithoutTreeSchema = SnapshotSchema.extend({ tree: z.array(z.unknown()) });

/**
 * The tree node `value` holds (a fresh object with TreeNode's fields only, as zod would give), or
 * a string saying why it is not one.
 */
export function parseTreeNode(value: unknown): TreeNode | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'is not an object';
  const { id, parentId, type, role, preview, label, timestamp, toolCalls, isError, customType } =
    value as Record<string, unknown>;
  if (typeof id !== 'string') return 'has no string "id"';
  if (parentId !== null && typeof parentId !== 'string')
    return 'has a "parentId" that is neither a string nor null';
  if (typeof type !== 'string') return 'has no string "type"';
  if (typeof preview !== 'string') return 'has no string "preview"';
  if (typeof timestamp !== 'string') return 'has no string "timestamp"';
  const node: TreeNode = { id, parentId, type, preview, timestamp };
  if (role !== undefined) {
    if (typeof role !== 'string') return 'has a "role" that is not a string';
    node.role = role;
  }
  if (label !== undefined) {
    if (typeof label !== 'string') return 'has a "label" that is not a string';
    node.label = label;
  }
  if (toolCalls !== undefined) {
    if (typeof toolCalls !== 'number') return 'has a "toolCalls" that is not a number';
    node.toolCalls = toolCalls;
  }
  if (isError !== undefined) {
    if (typeof isError !== 'boolean') return 'has an "isError" that is not a boolean';
    node.isError = isError;
  }
  if (customType !== undefined) {
    if (typeof customType !== 'string') return 'has a "customType" that is not a string';
    node.customType = customType;
  }
  return node;
}

export type SnapshotCheck = { ok: true; snapshot: Snapshot } | { ok: false; problem: string };

/** The snapshot frame, parsed; a malformed one is refused with the first problem found. */
export function parseSnapshot(json: unknown): SnapshotCheck {
  const parsed = SnapshotWithoutTreeSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      problem: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid snapshot'}`,
    };
  }
  const raw = parsed.data.tree;
  const tree: TreeNode[] = new Array<TreeNode>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const node = parseTreeNode(raw[i]);
    if (typeof node === 'string') return { ok: false, problem: `tree node ${i} ${node}` };
    tree[i] = node;
  }
  return { ok: true, snapshot: { ...parsed.data, tree } };
}
