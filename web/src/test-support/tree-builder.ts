import type { TreeNode } from '../../../shared/session-entries';
import { prng } from '../../../shared/prng';

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

/**
 * A session of about `size` entries as they grow: turns (a prompt, tool calls with results, an
 * answer) continued from the newest entry or branched off an older one, with the odd model change,
 * custom message, label and leaf marker.
 */
export function randomTree(seed: number, size: number): TreeNode[] {
  const random = prng(seed);
  const tree: TreeNode[] = [];
  const pick = (): string | null =>
    tree.length === 0 ? null : tree[Math.floor(random() * tree.length)]!.id;
  let tip: string | null = null;
  let turnNo = 0;
  while (tree.length < size) {
    const parent = random() < 0.8 ? tip : pick();
    const prefix = `s${seed}t${turnNo++}`;
    const specs: EntrySpec[] = [
      random() < 0.1
        ? { id: `${prefix}c`, type: 'custom_message' }
        : { id: `${prefix}u`, role: 'user', ...(random() < 0.05 ? { label: 'mark' } : {}) },
    ];
    const loops = Math.floor(random() * 3);
    for (let i = 0; i < loops; i++) {
      specs.push({ id: `${prefix}a${i}`, role: 'assistant', toolCalls: 1 });
      specs.push({ id: `${prefix}t${i}`, role: 'toolResult' });
    }
    specs.push({ id: `${prefix}f`, role: 'assistant' });
    if (random() < 0.15) specs.push({ id: `${prefix}m`, type: 'model_change' });
    if (random() < 0.1) specs.push({ id: `${prefix}k`, type: 'custom', customType: 'arbor.leaf' });
    const entries = chain(parent, specs);
    tree.push(...entries);
    tip = entries[entries.length - 1]!.id;
  }
  return tree;
}
