import { z } from 'zod';
import { PREVIEW_LENGTH, type TreeNode } from './session-entries.js';
import {
  hexId,
  hexIdValue,
  PACKED_ID_WIDTH,
  readDigits,
  shapeCodeWidth,
  TimeReader,
  TimeWriter,
  writeDigits,
} from './tree-wire-fields.js';

/*
 * The tree skeleton as it travels to clients: columns instead of one object per node, so a
 * 20,000-entry session fits the wire budget without compression. Parents are indexes into the node
 * order, the categorical fields (type, role, customType, toolCalls, isError) are codes into a small
 * table of shapes, timestamps are millisecond deltas, previews are one string with their lengths,
 * and what is rare (labels, odd ids, odd timestamps, parents that are not the node before) is listed
 * only where it occurs. `decodeTree(encodeTree(nodes))` gives `nodes` back exactly.
 * docs/protocol.md ("The tree encoding") states the format for other clients;
 * docs/decisions/033-tree-wire-encoding.md says why it looks like this.
 */

/** Bumped whenever a client that reads this encoding could misread the new one. */
export const TREE_WIRE_VERSION = 1;

/**
 * The store cuts previews to this many characters, the last being `…`. Such a preview travels as
 * its first `CLIPPED_PREVIEW_LENGTH - 1` characters in a shape marked `clipped`, without a length.
 */
export const CLIPPED_PREVIEW_LENGTH = PREVIEW_LENGTH;
const ELLIPSIS = '\u2026';
const CLIPPED_TEXT_LENGTH = CLIPPED_PREVIEW_LENGTH - 1;

/** What several nodes have in common; each node names one shape by its code. */
export const WireShapeSchema = z.object({
  type: z.string(),
  role: z.string().optional(),
  customType: z.string().optional(),
  toolCalls: z.number().optional(),
  isError: z.boolean().optional(),
  /** The preview is `CLIPPED_PREVIEW_LENGTH - 1` characters of `text` followed by `…`. */
  clipped: z.boolean().optional(),
});
export type WireShape = z.infer<typeof WireShapeSchema>;

const IndexedString = z.tuple([z.number(), z.string()]);

/**
 * The shape of an encoded skeleton, for schemas of frames that carry one. It says which fields
 * exist and their JSON types; `decodeTree` checks everything else (lengths, indexes, codes).
 */
export const WireTreeSchema = z.object({
  v: z.literal(TREE_WIRE_VERSION),
  /** Number of nodes. */
  n: z.number(),
  /** Packed 8-hex-digit ids (six digits each), or every id as a string. */
  ids: z.union([z.string(), z.array(z.string())]),
  /** With packed ids: `[index, id]` for the nodes whose id is not 8 lowercase hex digits. */
  otherIds: z.array(IndexedString).optional(),
  shapes: z.array(WireShapeSchema),
  /** One code per node, each as many digits as the shape table needs (one for up to 64). */
  shape: z.string(),
  /** `[index, parent]` where the parent is not the node before: an earlier index, -1 or an id. */
  parents: z.array(z.tuple([z.number(), z.union([z.number(), z.string()])])).optional(),
  /** Per node, milliseconds since the previous node's time (the first: since the epoch). */
  times: z.array(z.number()),
  /** `[index, timestamp]` for timestamps that are not what `Date#toISOString` writes. */
  timeStrings: z.array(IndexedString).optional(),
  /** Every preview, in node order, clipped ones without their `…`. */
  text: z.string(),
  /** The length of each preview whose shape is not clipped, in node order. */
  lengths: z.array(z.number()),
  /** `[index, label]` for labelled nodes. */
  labels: z.array(IndexedString).optional(),
});
export type WireTree = z.infer<typeof WireTreeSchema>;

// ---------------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------------

/** Shapes compared one by one below this table size; a map of keys above it. */
const SCAN_SHAPES = 64;

function keyOfShape(shape: WireShape): string {
  return JSON.stringify([
    shape.type,
    shape.role ?? null,
    shape.customType ?? null,
    shape.toolCalls ?? null,
    shape.isError ?? null,
    shape.clipped === true,
  ]);
}

function shapeOf(node: TreeNode, clipped: boolean): WireShape {
  const shape: WireShape = { type: node.type };
  if (node.role !== undefined) shape.role = node.role;
  if (node.customType !== undefined) shape.customType = node.customType;
  if (node.toolCalls !== undefined) shape.toolCalls = node.toolCalls;
  if (node.isError !== undefined) shape.isError = node.isError;
  if (clipped) shape.clipped = true;
  return shape;
}

/** The skeleton as it goes on the wire. Any TreeNode[] without a parent cycle decodes back. */
export function encodeTree(nodes: readonly TreeNode[]): WireTree {
  const n = nodes.length;
  const hexValues = new Float64Array(n);
  let hexIds = 0;
  for (let i = 0; i < n; i++) {
    hexValues[i] = hexIdValue(nodes[i]!.id);
    if (hexValues[i]! >= 0) hexIds++;
  }
  const packIds = n > 0 && hexIds * 2 >= n;
  const packed = packIds ? new Uint8Array(n * PACKED_ID_WIDTH) : undefined;

  const otherIds: [number, string][] = [];
  const shapes: WireShape[] = [];
  const shapeIndex = new Map<string, number>();
  /** The shape code of a node: found by comparing fields while the table is small, else by key. */
  const findShape = (node: TreeNode, clipped: boolean): number => {
    if (shapes.length <= SCAN_SHAPES) {
      for (let k = 0; k < shapes.length; k++) {
        const shape = shapes[k]!;
        if (
          shape.type === node.type &&
          shape.role === node.role &&
          shape.customType === node.customType &&
          shape.toolCalls === node.toolCalls &&
          shape.isError === node.isError &&
          (shape.clipped === true) === clipped
        )
          return k;
      }
      if (shapes.length < SCAN_SHAPES) {
        shapes.push(shapeOf(node, clipped));
        return shapes.length - 1;
      }
      shapes.forEach((shape, k) => shapeIndex.set(keyOfShape(shape), k));
    }
    const key = keyOfShape(shapeOf(node, clipped));
    let code = shapeIndex.get(key);
    if (code === undefined) {
      code = shapes.length;
      shapeIndex.set(key, code);
      shapes.push(shapeOf(node, clipped));
    }
    return code;
  };
  const codes = new Uint32Array(n);
  const parents: [number, number | string][] = [];
  const times = new Array<number>(n);
  const timeStrings: [number, string][] = [];
  const timeReader = new TimeReader();
  let text = '';
  const lengths: number[] = [];
  const labels: [number, string][] = [];
  const firstIndex = new Map<string, number>();
  let clock = 0;

  for (let i = 0; i < n; i++) {
    const node = nodes[i]!;
    if (packed) {
      const value = hexValues[i]!;
      writeDigits(value < 0 ? 0 : value, PACKED_ID_WIDTH, packed, i * PACKED_ID_WIDTH);
      if (value < 0) otherIds.push([i, node.id]);
    }

    const { preview } = node;
    const clipped = preview.length === CLIPPED_PREVIEW_LENGTH && preview.endsWith(ELLIPSIS);
    const code = findShape(node, clipped);
    codes[i] = code;

    // A parent is the first earlier node with its id, else named by id (outside the tree, or later).
    const parent = node.parentId === null ? -1 : (firstIndex.get(node.parentId) ?? node.parentId);
    if (parent !== i - 1) parents.push([i, parent]);
    if (!firstIndex.has(node.id)) firstIndex.set(node.id, i);

    const ms = timeReader.read(node.timestamp);
    if (ms === undefined) {
      times[i] = 0;
      timeStrings.push([i, node.timestamp]);
    } else {
      times[i] = ms - clock;
      clock = ms;
    }

    if (clipped) {
      text += preview.slice(0, CLIPPED_TEXT_LENGTH);
    } else {
      text += preview;
      lengths.push(preview.length);
    }
    if (node.label !== undefined) labels.push([i, node.label]);
  }

  const width = shapeCodeWidth(shapes.length);
  const shapeDigits = new Uint8Array(n * width);
  for (let i = 0; i < n; i++) writeDigits(codes[i]!, width, shapeDigits, i * width);

  const ascii = new TextDecoder();
  const wire: WireTree = {
    v: TREE_WIRE_VERSION,
    n,
    ids: packed ? ascii.decode(packed) : nodes.map((node) => node.id),
    shapes,
    shape: ascii.decode(shapeDigits),
    times,
    text,
    lengths,
  };
  if (otherIds.length > 0) wire.otherIds = otherIds;
  if (parents.length > 0) wire.parents = parents;
  if (timeStrings.length > 0) wire.timeStrings = timeStrings;
  if (labels.length > 0) wire.labels = labels;
  return wire;
}

// ---------------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------------

class WireProblem extends Error {}

function problem(message: string): never {
  throw new WireProblem(message);
}

/** Largest millisecond distance from the epoch a Date can hold. */
const MAX_TIME = 8.64e15;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function array(value: unknown, name: string, optional = false): unknown[] {
  if (value === undefined && optional) return [];
  if (!Array.isArray(value)) problem(`"${name}" is not an array`);
  return value;
}

/**
 * The `[index, value]` pairs of a sparse column, indexes strictly increasing within the tree,
 * each value checked by `read`.
 */
function pairs<T>(
  value: unknown,
  name: string,
  n: number,
  read: (item: unknown, index: number) => T,
): [number, T][] {
  const list = array(value, name, true);
  const out: [number, T][] = [];
  let last = -1;
  for (let k = 0; k < list.length; k++) {
    const pair = list[k];
    if (!Array.isArray(pair) || pair.length !== 2) problem(`"${name}" item ${k} is not a pair`);
    const index: unknown = pair[0];
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= n)
      problem(`"${name}" item ${k} names node ${String(index)}, not one of the ${n} nodes`);
    if ((index as number) <= last)
      problem(`"${name}" item ${k} names node ${String(index)} out of order`);
    last = index as number;
    out.push([last, read(pair[1], last)]);
  }
  return out;
}

function readString(name: string) {
  return (item: unknown, index: number): string => {
    if (typeof item !== 'string') problem(`"${name}" of node ${index} is not a string`);
    return item;
  };
}

function readIds(wire: Record<string, unknown>, n: number): string[] {
  const { ids } = wire;
  if (Array.isArray(ids)) {
    if (ids.length !== n) problem(`"ids" has ${ids.length} ids for ${n} nodes`);
    for (let i = 0; i < n; i++) {
      if (typeof ids[i] !== 'string') problem(`"ids" item ${i} is not a string`);
    }
    if (wire.otherIds !== undefined) problem('"otherIds" comes only with packed "ids"');
    return ids as string[];
  }
  if (typeof ids !== 'string') problem('"ids" is neither a string nor an array');
  if (ids.length !== n * PACKED_ID_WIDTH)
    problem(`"ids" has ${ids.length} characters; ${n} nodes need ${n * PACKED_ID_WIDTH}`);
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const value = readDigits(ids, i * PACKED_ID_WIDTH, PACKED_ID_WIDTH);
    if (value < 0) problem(`"ids" of node ${i} has a character that is not a base-64 digit`);
    if (value > 0xffffffff) problem(`"ids" of node ${i} is larger than 32 bits`);
    out[i] = hexId(value);
  }
  for (const [i, id] of pairs(wire.otherIds, 'otherIds', n, readString('otherIds'))) out[i] = id;
  return out;
}

function readShapes(wire: Record<string, unknown>): WireShape[] {
  return array(wire.shapes, 'shapes').map((value, k) => {
    const parsed = WireShapeSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problem(`shape ${k}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is malformed'}`);
    }
    return parsed.data;
  });
}

function readCodes(wire: Record<string, unknown>, n: number, shapeCount: number): number[] {
  const { shape } = wire;
  if (typeof shape !== 'string') problem('"shape" is not a string');
  const width = shapeCodeWidth(shapeCount);
  if (shape.length !== n * width)
    problem(`"shape" has ${shape.length} characters; ${n} codes of ${width} need ${n * width}`);
  const codes = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const code = readDigits(shape, i * width, width);
    if (code < 0) problem(`"shape" of node ${i} has a character that is not a base-64 digit`);
    if (code >= shapeCount) problem(`node ${i} has shape ${code}; there are ${shapeCount}`);
    codes[i] = code;
  }
  return codes;
}

function readTimes(wire: Record<string, unknown>, n: number): string[] {
  const times = array(wire.times, 'times');
  if (times.length !== n) problem(`"times" has ${times.length} deltas for ${n} nodes`);
  const raw = new Map(pairs(wire.timeStrings, 'timeStrings', n, readString('timeStrings')));
  const out = new Array<string>(n);
  const writer = new TimeWriter();
  let clock = 0;
  for (let i = 0; i < n; i++) {
    const delta = times[i];
    if (!Number.isSafeInteger(delta)) problem(`"times" of node ${i} is not a whole number`);
    const given = raw.get(i);
    if (given !== undefined) {
      if (delta !== 0) problem(`node ${i} has a time string and a nonzero delta`);
      out[i] = given;
      continue;
    }
    clock += delta as number;
    if (Math.abs(clock) > MAX_TIME) problem(`the time of node ${i} is outside what a date holds`);
    out[i] = writer.write(clock);
  }
  return out;
}

function readPreviews(
  wire: Record<string, unknown>,
  codes: number[],
  shapes: WireShape[],
): string[] {
  const { text } = wire;
  if (typeof text !== 'string') problem('"text" is not a string');
  const lengths = array(wire.lengths, 'lengths');
  const out = new Array<string>(codes.length);
  let at = 0;
  let next = 0;
  for (let i = 0; i < codes.length; i++) {
    let length: number;
    const clipped = shapes[codes[i]!]!.clipped === true;
    if (clipped) {
      length = CLIPPED_TEXT_LENGTH;
    } else {
      if (next >= lengths.length) problem(`"lengths" ends before node ${i}`);
      const value = lengths[next++];
      if (!Number.isSafeInteger(value) || (value as number) < 0)
        problem(`"lengths" item ${next - 1} is not a length`);
      length = value as number;
    }
    if (at + length > text.length) problem(`"text" ends inside the preview of node ${i}`);
    const piece = text.slice(at, at + length);
    at += length;
    out[i] = clipped ? piece + ELLIPSIS : piece;
  }
  if (next !== lengths.length)
    problem(`"lengths" has ${lengths.length} items; ${next} previews need one`);
  if (at !== text.length)
    problem(`"text" has ${text.length - at} characters beyond the last preview`);
  return out;
}

/**
 * Each node's parent as an index (-1 for none, -2 for an id that is not in the tree) and as the
 * parentId string. Refuses parents at or after their child by index, ids given by id that an
 * earlier node has (they must be indexes), and cycles through parents given by id.
 */
function readParents(wire: Record<string, unknown>, ids: string[]): (string | null)[] {
  const n = ids.length;
  const parentIndex = new Int32Array(n);
  for (let i = 0; i < n; i++) parentIndex[i] = i - 1;
  const given = pairs(wire.parents, 'parents', n, (item, i) => {
    if (typeof item === 'string') return item;
    if (!Number.isInteger(item) || (item as number) < -1 || (item as number) >= i)
      problem(`the parent of node ${i} is ${String(item)}: it must be -1 or an earlier node`);
    return item as number;
  });
  let firstIndex: Map<string, number> | undefined;
  let forward = false;
  const byId = new Map<number, string>();
  for (const [i, parent] of given) {
    if (typeof parent === 'number') {
      parentIndex[i] = parent;
      continue;
    }
    if (!firstIndex) {
      firstIndex = new Map();
      for (let k = n - 1; k >= 0; k--) firstIndex.set(ids[k]!, k);
    }
    const at = firstIndex.get(parent);
    if (at !== undefined && at < i)
      problem(`the parent of node ${i} is node ${at} by id; an earlier node goes by index`);
    if (at !== undefined) forward = true;
    parentIndex[i] = at ?? -2;
    byId.set(i, parent);
  }
  if (forward) refuseCycles(parentIndex);
  const out = new Array<string | null>(n);
  for (let i = 0; i < n; i++) {
    const p = parentIndex[i]!;
    out[i] = byId.get(i) ?? (p >= 0 ? ids[p]! : null);
  }
  return out;
}

/** Follows every chain of parents once; a chain that comes back to itself is refused. */
function refuseCycles(parentIndex: Int32Array): void {
  const state = new Uint8Array(parentIndex.length); // 0 unseen, 1 on the current chain, 2 done
  const chain: number[] = [];
  for (let start = 0; start < parentIndex.length; start++) {
    let i = start;
    while (i >= 0 && state[i] === 0) {
      state[i] = 1;
      chain.push(i);
      i = parentIndex[i]!;
    }
    if (i >= 0 && state[i] === 1) problem(`node ${i} is its own ancestor`);
    for (const k of chain) state[k] = 2;
    chain.length = 0;
  }
}

/**
 * The skeleton an encoded tree holds, or a sentence saying what is wrong with it. Checks every
 * length, index, code and digit, so a hostile or broken frame gives a problem, never an exception.
 */
export function decodeTree(wire: unknown): TreeNode[] | string {
  try {
    return decode(wire);
  } catch (error) {
    if (error instanceof WireProblem) return error.message;
    throw error;
  }
}

function decode(wire: unknown): TreeNode[] {
  if (!isRecord(wire)) problem('the tree is not an object');
  if (wire.v !== TREE_WIRE_VERSION)
    problem(`the tree is in encoding ${String(wire.v)}; this client reads ${TREE_WIRE_VERSION}`);
  const n = wire.n;
  if (!Number.isSafeInteger(n) || (n as number) < 0) problem('"n" is not a node count');
  const count = n as number;
  const ids = readIds(wire, count);
  const shapes = readShapes(wire);
  const codes = readCodes(wire, count, shapes.length);
  const parents = readParents(wire, ids);
  const timestamps = readTimes(wire, count);
  const previews = readPreviews(wire, codes, shapes);
  const labels = new Map(pairs(wire.labels, 'labels', count, readString('labels')));

  const nodes = new Array<TreeNode>(count);
  for (let i = 0; i < count; i++) {
    const shape = shapes[codes[i]!]!;
    const node: TreeNode = {
      id: ids[i]!,
      parentId: parents[i]!,
      type: shape.type,
      preview: previews[i]!,
      timestamp: timestamps[i]!,
    };
    if (shape.role !== undefined) node.role = shape.role;
    const label = labels.get(i);
    if (label !== undefined) node.label = label;
    if (shape.toolCalls !== undefined) node.toolCalls = shape.toolCalls;
    if (shape.isError !== undefined) node.isError = shape.isError;
    if (shape.customType !== undefined) node.customType = shape.customType;
    nodes[i] = node;
  }
  return nodes;
}
