import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionStore } from '../server/store/session-store.js';
import { PI_FIXTURES } from '../server/store/test-support/temp-dir.js';
import { PREVIEW_LENGTH, type TreeNode } from './session-entries.js';
import { decodeTree, encodeTree, WireTreeSchema } from './tree-wire.js';
import { prng } from './prng.js';

/** The encoded tree as a client receives it: through JSON. */
function overTheWire(nodes: TreeNode[]): Record<string, unknown> {
  return JSON.parse(JSON.stringify(encodeTree(nodes))) as Record<string, unknown>;
}

function roundTrip(nodes: TreeNode[]): TreeNode[] | string {
  return decodeTree(overTheWire(nodes));
}

const PREVIEW_TEXTS = [
  '',
  'hi',
  'x'.repeat(PREVIEW_LENGTH - 1) + '\u2026',
  'y'.repeat(PREVIEW_LENGTH),
  'z'.repeat(PREVIEW_LENGTH) + '\u2026',
  'ab\u2026',
  'naïve café — 日本語 🌳',
  '\ud83c', // a lone surrogate, as a cut inside an emoji leaves
  'quote " backslash \\ newline \n tab \t',
  'bash: ' + 'ok '.repeat(40),
];

const TIMESTAMPS = [
  '2026-01-01T00:00:00Z', // pi's files may omit milliseconds
  '2026-01-01T00:00:00.000+00:00',
  'not a date',
  '',
  '+010000-01-01T00:00:00.000Z',
  '1969-12-31T23:59:59.999Z',
  '2026-02-30T00:00:00.000Z',
];

/**
 * A tree with every kind of field a skeleton can hold: hex and other ids (some repeated), parents
 * before, after and outside the tree, canonical and odd timestamps crossing hour boundaries, every
 * kind of preview, labels and the categorical fields in many combinations.
 */
function randomNodes(seed: number, size: number): TreeNode[] {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const hexIds = random() < 0.7;
  const ids: string[] = [];
  for (let i = 0; i < size; i++) {
    const hex = Math.floor(random() * 2 ** 32)
      .toString(16)
      .padStart(8, '0');
    const r = random();
    ids.push(r < 0.03 && ids.length > 0 ? pick(ids) : hexIds && r < 0.95 ? hex : `e-${seed}-${i}`);
  }
  let clock = Date.UTC(2026, 0, 1, 0, 59, 58) + Math.floor(random() * 1000);
  const nodes: TreeNode[] = [];
  for (let i = 0; i < size; i++) {
    const r = random();
    let parentId: string | null;
    if (i === 0 || r < 0.05) parentId = null;
    else if (r < 0.75) parentId = ids[i - 1]!;
    else if (r < 0.9) parentId = ids[Math.floor(random() * i)]!;
    else if (r < 0.95) parentId = `gone-${i}`;
    else parentId = i + 1 < size ? ids[i + 1 + Math.floor(random() * (size - i - 1))]! : null;
    clock += random() < 0.1 ? -Math.floor(random() * 5000) : Math.floor(random() * 90_000);
    const node: TreeNode = {
      id: ids[i]!,
      parentId,
      type: pick(['message', 'message', 'message', 'custom', 'label', 'compaction']),
      preview: random() < 0.5 ? pick(PREVIEW_TEXTS) : `node ${i} ${'w'.repeat(i % 120)}`,
      timestamp: random() < 0.05 ? pick(TIMESTAMPS) : new Date(clock).toISOString(),
    };
    if (random() < 0.7) node.role = pick(['user', 'assistant', 'toolResult', 'custom']);
    if (random() < 0.1) node.label = pick(['', 'mark', 'a label with "quotes"']);
    if (random() < 0.3) node.toolCalls = Math.floor(random() * 4);
    if (random() < 0.2) node.isError = random() < 0.5;
    if (random() < 0.1) node.customType = pick(['arbor.leaf', 'ext.note']);
    nodes.push(node);
  }
  // Dropping a node can change which node a repeated id names, so drop until no cycle is left.
  let kept = nodes;
  while (kept.some((_, i) => hasCycle(kept, i))) kept = kept.filter((_, i) => !hasCycle(kept, i));
  return kept;
}

/** Whether following parents by id from node `start` comes back to a node already seen. */
function hasCycle(nodes: TreeNode[], start: number): boolean {
  const first = new Map<string, number>();
  nodes.forEach((node, i) => {
    if (!first.has(node.id)) first.set(node.id, i);
  });
  const seen = new Set<number>();
  let at: number | undefined = start;
  while (at !== undefined) {
    if (seen.has(at)) return true;
    seen.add(at);
    const parentId: string | null = nodes[at]!.parentId;
    at = parentId === null ? undefined : first.get(parentId);
  }
  return false;
}

describe('encodeTree and decodeTree', () => {
  const fixtures = fs.readdirSync(PI_FIXTURES).filter((name) => /^v\d.*\.jsonl$/.test(name));

  it.each(fixtures)('%s: the skeleton comes back exactly', (name) => {
    const tree = SessionStore.openReadOnly(path.join(PI_FIXTURES, name)).getTree();
    expect(tree.length).toBeGreaterThan(0);
    expect(roundTrip(tree)).toStrictEqual(JSON.parse(JSON.stringify(tree)));
  });

  it('gives back random trees exactly, whatever their ids, parents, times and previews', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const nodes = randomNodes(seed, 1 + ((seed * 37) % 400));
      expect(roundTrip(nodes), `seed ${seed}`).toStrictEqual(nodes);
    }
  });

  it('gives back an empty tree', () => {
    expect(roundTrip([])).toStrictEqual([]);
  });

  it('writes a plain chain as columns only: packed ids, no parents, no labels', () => {
    const nodes: TreeNode[] = Array.from({ length: 3 }, (_, i) => ({
      id: `0000000${i}`,
      parentId: i === 0 ? null : `0000000${i - 1}`,
      type: 'message',
      role: 'user',
      preview: `p${i}`,
      timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1500).toISOString(),
    }));
    expect(encodeTree(nodes)).toStrictEqual({
      v: 1,
      n: 3,
      ids: 'AAAAAAAAAAABAAAAAC',
      shapes: [{ type: 'message', role: 'user' }],
      shape: 'AAA',
      times: [Date.UTC(2026, 0, 1), 1500, 1500],
      text: 'p0p1p2',
      lengths: [2, 2, 2],
    });
  });

  it('drops the ellipsis of previews the store cut and lists no length for them', () => {
    const cut = 'c'.repeat(PREVIEW_LENGTH - 1) + '\u2026';
    const wire = encodeTree([
      { id: 'a', parentId: null, type: 'message', preview: cut, timestamp: 'x' },
    ]);
    expect(wire.text).toBe('c'.repeat(PREVIEW_LENGTH - 1));
    expect(wire.lengths).toEqual([]);
    expect(wire.shapes[0]).toEqual({ type: 'message', clipped: true });
  });

  it('uses two digits per node once there are more than 64 shapes', () => {
    const nodes: TreeNode[] = Array.from({ length: 200 }, (_, i) => ({
      id: `n${i}`,
      parentId: i === 0 ? null : `n${i - 1}`,
      type: 'message',
      role: 'assistant',
      toolCalls: i,
      preview: '',
      timestamp: '2026-01-01T00:00:00.000Z',
    }));
    const wire = encodeTree(nodes);
    expect(wire.shapes).toHaveLength(200);
    expect(wire.shape).toHaveLength(400);
    expect(roundTrip(nodes)).toStrictEqual(nodes);
  });

  it('produces what WireTreeSchema describes', () => {
    expect(WireTreeSchema.safeParse(overTheWire(randomNodes(7, 300))).success).toBe(true);
  });
});

describe('decodeTree refuses broken or hostile trees', () => {
  const nodes: TreeNode[] = [
    {
      id: 'aaaaaaaa',
      parentId: null,
      type: 'message',
      role: 'user',
      preview: 'one',
      timestamp: '2026-01-01T00:00:00.000Z',
    },
    {
      id: 'bbbbbbbb',
      parentId: 'aaaaaaaa',
      type: 'message',
      role: 'assistant',
      preview: 'two',
      timestamp: '2026-01-01T00:00:01.000Z',
      toolCalls: 1,
    },
    {
      id: 'cccccccc',
      parentId: 'aaaaaaaa',
      type: 'message',
      role: 'user',
      preview: 'three',
      label: 'x',
      timestamp: '2026-01-01T00:00:02.000Z',
    },
  ];
  const valid = (): Record<string, unknown> => overTheWire(nodes);
  const cases: [string, (wire: Record<string, unknown>) => unknown, RegExp][] = [
    ['not an object', () => 'tree', /not an object/],
    ['an array', () => [], /not an object/],
    ['another version', (w) => ({ ...w, v: 2 }), /encoding 2/],
    ['a negative count', (w) => ({ ...w, n: -1 }), /"n" is not a node count/],
    ['a fractional count', (w) => ({ ...w, n: 1.5 }), /"n" is not a node count/],
    [
      'a count the columns do not have',
      (w) => ({ ...w, n: 4 }),
      /"ids" has 18 characters; 4 nodes need 24/,
    ],
    ['ids neither string nor array', (w) => ({ ...w, ids: 7 }), /"ids" is neither/],
    [
      'an id digit outside base 64',
      (w) => ({ ...w, ids: `${(w.ids as string).slice(0, 17)}!` }),
      /"ids" of node 2 has a character/,
    ],
    [
      'an id over 32 bits',
      (w) => ({ ...w, ids: `_${(w.ids as string).slice(1)}` }),
      /larger than 32 bits/,
    ],
    [
      'id strings of the wrong count',
      (w) => ({ ...w, ids: ['a', 'b'] }),
      /"ids" has 2 ids for 3 nodes/,
    ],
    [
      'an id that is not a string',
      (w) => ({ ...w, ids: ['a', 'b', 3] }),
      /"ids" item 2 is not a string/,
    ],
    [
      'otherIds without packed ids',
      (w) => ({ ...w, ids: ['a', 'b', 'c'], otherIds: [[0, 'z']] }),
      /only with packed/,
    ],
    [
      'a shape code beyond the table',
      (w) => ({ ...w, shape: 'AAD' }),
      /node 2 has shape 3; there are 2/,
    ],
    [
      'a shape column of the wrong length',
      (w) => ({ ...w, shape: 'AA' }),
      /"shape" has 2 characters/,
    ],
    [
      'a shape code that is no digit',
      (w) => ({ ...w, shape: 'AA*' }),
      /"shape" of node 2 has a character/,
    ],
    ['a shape without a type', (w) => ({ ...w, shapes: [{}, {}, {}] }), /shape 0: type/],
    ['shapes that are not an array', (w) => ({ ...w, shapes: {} }), /"shapes" is not an array/],
    [
      'a parent after its child',
      (w) => ({ ...w, parents: [[1, 2]] }),
      /parent of node 1 is 2: it must be -1 or an earlier node/,
    ],
    [
      'a node its own parent by index',
      (w) => ({ ...w, parents: [[1, 1]] }),
      /parent of node 1 is 1/,
    ],
    ['a parent below -1', (w) => ({ ...w, parents: [[1, -2]] }), /parent of node 1 is -2/],
    ['a fractional parent', (w) => ({ ...w, parents: [[1, 0.5]] }), /parent of node 1 is 0.5/],
    [
      'an earlier node named by id',
      (w) => ({ ...w, parents: [[2, 'aaaaaaaa']] }),
      /node 0 by id; an earlier node goes by index/,
    ],
    ['a cycle through ids', (w) => ({ ...w, parents: [[0, 'bbbbbbbb']] }), /its own ancestor/],
    [
      'a node its own parent by id',
      (w) => ({ ...w, parents: [[2, 'cccccccc']] }),
      /its own ancestor/,
    ],
    [
      'pairs out of order',
      (w) => ({
        ...w,
        parents: [
          [2, 0],
          [1, 0],
        ],
      }),
      /"parents" item 1 names node 1 out of order/,
    ],
    [
      'a pair index out of range',
      (w) => ({ ...w, labels: [[3, 'x']] }),
      /"labels" item 0 names node 3, not one of the 3 nodes/,
    ],
    [
      'a pair that is not a pair',
      (w) => ({ ...w, labels: [[1]] }),
      /"labels" item 0 is not a pair/,
    ],
    [
      'a label that is not a string',
      (w) => ({ ...w, labels: [[1, 5]] }),
      /"labels" of node 1 is not a string/,
    ],
    [
      'times of the wrong length',
      (w) => ({ ...w, times: [0] }),
      /"times" has 1 deltas for 3 nodes/,
    ],
    [
      'a fractional time',
      (w) => ({ ...w, times: [0, 0.5, 0] }),
      /"times" of node 1 is not a whole number/,
    ],
    [
      'a time no date holds',
      (w) => ({ ...w, times: [8.64e15, 1, 0] }),
      /time of node 1 is outside/,
    ],
    [
      'a time string with a delta',
      (w) => ({ ...w, timeStrings: [[1, 'x']] }),
      /node 1 has a time string and a nonzero delta/,
    ],
    [
      'text too short',
      (w) => ({ ...w, text: 'onetwo' }),
      /"text" ends inside the preview of node 2/,
    ],
    [
      'text too long',
      (w) => ({ ...w, text: `${w.text as string}!` }),
      /1 characters beyond the last preview/,
    ],
    ['a length too few', (w) => ({ ...w, lengths: [3, 3] }), /"lengths" ends before node 2/],
    [
      'a length too many',
      (w) => ({ ...w, lengths: [3, 3, 5, 0] }),
      /"lengths" has 4 items; 3 previews need one/,
    ],
    [
      'a negative length',
      (w) => ({ ...w, lengths: [3, -3, 11] }),
      /"lengths" item 1 is not a length/,
    ],
    ['text that is not a string', (w) => ({ ...w, text: null }), /"text" is not a string/],
  ];

  it.each(cases)('%s', (_, mutate, message) => {
    const result = decodeTree(mutate(valid()));
    expect(typeof result).toBe('string');
    expect(result).toMatch(message);
  });

  it('the unbroken tree decodes, so each case above breaks one thing', () => {
    expect(decodeTree(valid())).toStrictEqual(nodes);
  });

  it('never throws on random damage', () => {
    const random = prng(99);
    const junk = [null, -1, 0, 1e300, 0.5, 'x', '', [], [[0, 'x']], [[-1, 0]], {}, true];
    const base = overTheWire(randomNodes(5, 120));
    const keys = Object.keys(base);
    for (let round = 0; round < 2000; round++) {
      const wire = structuredClone(base) as Record<string, unknown>;
      const key = keys[Math.floor(random() * keys.length)]!;
      const value = wire[key];
      if (Array.isArray(value) && value.length > 0 && random() < 0.7) {
        value[Math.floor(random() * value.length)] = junk[Math.floor(random() * junk.length)];
      } else if (typeof value === 'string' && random() < 0.7) {
        const at = Math.floor(random() * (value.length + 1));
        wire[key] = value.slice(0, at) + String.fromCharCode(random() * 200) + value.slice(at + 1);
      } else {
        wire[key] = junk[Math.floor(random() * junk.length)];
      }
      expect(() => decodeTree(wire)).not.toThrow();
    }
  });
});
