import type { TreeNode } from '../../../shared/session-entries';

/*
 * Builds tree skeletons for tests: `chain` appends entries one under the other, `at` starts a new
 * branch under any entry. Timestamps increase with every entry, as appends do.
 */

let clock = Date.parse('2026-01-01T00:00:00.000Z');

export interface EntrySpec {
  id: string;
  role?: string;
  type?: string;
  preview?: string;
  toolCalls?: number;
  label?: string;
  customType?: string;
  isError?: boolean;
}

export function node(spec: EntrySpec, parentId: string | null): TreeNode {
  clock += 1000;
  const type = spec.type ?? 'message';
  const result: TreeNode = {
    id: spec.id,
    parentId,
    type,
    preview: spec.preview ?? `${spec.role ?? type} ${spec.id}`,
    timestamp: new Date(clock).toISOString(),
  };
  if (type === 'message') result.role = spec.role ?? 'user';
  if (spec.toolCalls !== undefined) result.toolCalls = spec.toolCalls;
  if (spec.label !== undefined) result.label = spec.label;
  if (spec.customType !== undefined) result.customType = spec.customType;
  if (spec.isError !== undefined) result.isError = spec.isError;
  return result;
}

/** Entries each the child of the one before, the first under `parentId`. */
export function chain(parentId: string | null, specs: EntrySpec[]): TreeNode[] {
  const out: TreeNode[] = [];
  let parent = parentId;
  for (const spec of specs) {
    out.push(node(spec, parent));
    parent = spec.id;
  }
  return out;
}

/** One turn: a prompt, `loops` tool calls with their results, and a final answer. */
export function turn(parentId: string | null, prefix: string, loops = 0): TreeNode[] {
  const specs: EntrySpec[] = [{ id: `${prefix}u`, role: 'user', preview: `prompt ${prefix}` }];
  for (let i = 0; i < loops; i++) {
    specs.push({ id: `${prefix}a${i}`, role: 'assistant', toolCalls: 1, preview: '' });
    specs.push({ id: `${prefix}t${i}`, role: 'toolResult', preview: `result ${i}` });
  }
  specs.push({ id: `${prefix}f`, role: 'assistant', preview: `answer ${prefix}` });
  return chain(parentId, specs);
}
