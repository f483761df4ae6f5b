import type { TreeNode } from '../../shared/session-entries.js';

/*
 * The in-memory skeleton of a session: one record per entry (no bodies), the parent/child index,
 * labels and the session name. Everything a tree view or a leaf move needs, at a few hundred
 * bytes per entry, whatever the size of the bodies on disk.
 */

/** The customType of the entries that persist a leaf move (docs/decisions/001-leaf-persistence.md). */
export const LEAF_MARKER_TYPE = 'arbor.leaf';

/**
 * One entry of the skeleton. A class, so that every record has the same shape whichever path
 * made it (the scan of a message line, a parsed line, an append): the code that walks records
 * then stays monomorphic, which a big open needs (an object literal per path gave V8 several
 * shapes and sent the index's `add` back to the interpreter for the rest of the file).
 */
export class EntryRecord {
  readonly id: string;
  /** `parentId` as written in the file. */
  parentId: string | null;
  readonly type: string;
  readonly role: string | undefined;
  /** Skeleton without label; `parentId` here is the parent a tree view should draw. */
  readonly node: TreeNode;
  /** 1-based line number in the file (0 for in-memory entries). */
  readonly line: number;
  /** Byte offset and length of the line's JSON (newline excluded); -1 when there is no file. */
  readonly offset: number;
  readonly length: number;
  /**
   * False for lines whose body this version cannot use (unknown type, invalid body). Large lines
   * are indexed without a parse and become false if their body fails when it is first read.
   */
  usable: boolean;
  /** A leaf marker: kept in the file, hidden from the tree. */
  readonly marker: boolean;
  /**
   * Ancestry, filled in by `SessionIndex.ancestry` (depth -1 until then): the depth and the
   * nearest thinking change, model source and compaction at or above this entry. With these a
   * context is built from the entries it contains, not from the whole path to the root.
   */
  depth = NO_ANCESTRY.depth;
  /**
   * Where the index keeps this record, and the record `parentId` names (-1 until it is added,
   * or when the parent was not there yet): walks up the tree follow positions, not id lookups.
   */
  slot = NO_ANCESTRY.slot;
  parentSlot = NO_ANCESTRY.parentSlot;
  thinking: EntryRecord | undefined = undefined;
  model: EntryRecord | undefined = undefined;
  compaction: EntryRecord | undefined = undefined;

  /**
   * `node` is the entry's skeleton; `line`, `offset`, `length` where it is in the file. Its id,
   * parent and type come apart from it: nodes have several shapes (optional keys), and reading
   * them here would make this constructor see them all.
   */
  constructor(
    id: string,
    parentId: string | null,
    type: string,
    role: string | undefined,
    node: TreeNode,
    line: number,
    offset: number,
    length: number,
    usable: boolean,
    marker: boolean,
  ) {
    this.id = id;
    this.parentId = parentId;
    this.type = type;
    this.role = role;
    this.node = node;
    this.line = line;
    this.offset = offset;
    this.length = length;
    this.usable = usable;
    this.marker = marker;
  }
}

/** The depth of a record while `SessionIndex.ancestry` walks through it. */
const IN_CHAIN = -2;

/** The ancestry fields of a record not yet placed. */
export const NO_ANCESTRY = {
  depth: -1,
  slot: -1,
  parentSlot: -1,
  thinking: undefined,
  model: undefined,
  compaction: undefined,
};

export interface LabelState {
  label: string;
  timestamp: string;
}

export class SessionIndex {
  readonly byId = new Map<string, EntryRecord>();
  /** Entry ids in file order (first occurrence of each id). */
  readonly order: string[] = [];
  /** `records[i]` is the record of `order[i]` (the last one with that id): its slot is `i`. */
  private readonly records: EntryRecord[] = [];
  readonly duplicateIds: string[] = [];
  readonly orphans: string[] = [];
  /**
   * Children by the parent a view draws (markers resolved, orphans under null): the id itself
   * for an only child (most entries have one), an array from the second on. Built on the first
   * `getChildren` (an open does not need it), kept up to date from then on.
   */
  private children: Map<string | null, string | string[]> | undefined;
  readonly labels = new Map<string, LabelState>();
  /** The id of the last entry in file order, markers included (pi's leaf on open). */
  lastId: string | undefined;
  sessionName: string | undefined;
  /** Some entries' parents lead back to themselves (see `finalize`). */
  hasCycles = false;
  private finalized = false;
  /** The record added last (most often the parent of the next one). */
  private last: EntryRecord | undefined;
  /**
   * Some record named a parent not added before it (missing, later in the file, itself), or a
   * leaf marker: its drawn parent is not its parent as written.
   */
  private forwardParents = false;
  private markerParents = false;

  /** Adds a record during load; call `finalize` once every line is in. */
  add(record: EntryRecord): void {
    // Share the parent's id string: one string per id, however many children point at it.
    const parentId = record.parentId;
    const last = this.last;
    const parent =
      parentId === null
        ? undefined
        : last !== undefined && last.id === parentId
          ? last
          : this.byId.get(parentId);
    if (parent) {
      // The record shares its parent's id string. Its node is left as it is (nodes have several
      // shapes, a write here would make `add` see them all): the scan already gave it the
      // previous line's string, the common case.
      record.parentId = parent.id;
      record.parentSlot = parent.slot;
      if (parent.marker) this.markerParents = true;
    } else if (parentId !== null) {
      this.forwardParents = true;
    }
    const size = this.byId.size;
    this.byId.set(record.id, record);
    if (this.byId.size === size) {
      this.duplicateIds.push(record.id);
      record.slot = this.order.indexOf(record.id);
      this.records[record.slot] = record;
    } else {
      record.slot = this.order.length;
      this.order.push(record.id);
      this.records.push(record);
    }
    this.lastId = record.id;
    this.last = record;
    if (this.finalized) this.link(record);
  }

  /**
   * Resolves the drawn parent of every record. Entries on a parent cycle (A's parent B, B's
   * parent A: no tree has them) are drawn as roots, like orphans.
   */
  finalize(): void {
    this.finalized = true;
    // When every parent came before its child, is not a leaf marker and no id came twice, each
    // node already names its drawn parent (set by `add`): no orphan, no cycle, nothing to walk.
    if (!this.forwardParents && !this.markerParents && this.duplicateIds.length === 0) return;
    const onCycle = this.entriesOnCycles();
    this.hasCycles = onCycle.size > 0;
    for (const record of this.records) this.link(record, onCycle.has(record.id));
  }

  /** Ids on a cycle of `parentId` links, found in one linear walk. */
  private entriesOnCycles(): Set<string> {
    const onCycle = new Set<string>();
    // On a cycle, the member added first names a parent added after it (or itself). When every
    // parent came before its child and no id came twice, there is none.
    if (!this.forwardParents && this.duplicateIds.length === 0) return onCycle;
    const walkOf = new Map<string, number>();
    let walk = 0;
    for (const start of this.order) {
      if (walkOf.has(start)) continue;
      walk++;
      const chain: string[] = [];
      let id: string | null = start;
      while (id !== null && !walkOf.has(id)) {
        const record = this.byId.get(id);
        if (!record) break;
        walkOf.set(id, walk);
        chain.push(id);
        id = record.parentId;
      }
      if (id !== null && walkOf.get(id) === walk && chain.includes(id)) {
        for (const member of chain.slice(chain.indexOf(id))) onCycle.add(member);
      }
    }
    return onCycle;
  }

  private link(record: EntryRecord, onCycle = false): void {
    const drawn = onCycle ? 'orphan' : this.drawnParent(record);
    if (drawn === 'orphan') {
      this.orphans.push(record.id);
      record.node.parentId = null;
    } else {
      record.node.parentId = drawn;
    }
    if (this.children) addChild(this.children, record);
  }

  /** The child lists, built from the drawn parents on first use. */
  private childLists(): Map<string | null, string | string[]> {
    if (this.children) return this.children;
    const children = new Map<string | null, string | string[]>();
    for (const record of this.records) addChild(children, record);
    this.children = children;
    return children;
  }

  /** The nearest ancestor that is not a marker; 'orphan' when the chain is broken. */
  private drawnParent(record: EntryRecord): string | null | 'orphan' {
    let parentId = record.parentId;
    // Most parents are there and are not markers: no walk to make.
    if (parentId === null) return null;
    const direct = parentId === record.id ? undefined : this.byId.get(parentId);
    if (direct && !direct.marker) return parentId;
    const seen = new Set<string>([record.id]);
    while (parentId !== null) {
      if (seen.has(parentId)) return 'orphan';
      seen.add(parentId);
      const parent = this.byId.get(parentId);
      if (!parent) return 'orphan';
      if (!parent.marker) return parentId;
      parentId = parent.parentId;
    }
    return null;
  }

  /** Fills in the ancestry of `record` and of its ancestors that lack it. */
  ancestry(record: EntryRecord): EntryRecord {
    if (record.depth >= 0) return record;
    const chain: EntryRecord[] = [];
    // Records on the chain are marked IN_CHAIN until their depth is known. Every one but the
    // first comes from `byId` (one record per id), so meeting a marked record, or the first one's
    // id, is meeting an id already on the chain: a cycle.
    let current: EntryRecord | undefined = record;
    while (current && current.depth === NO_ANCESTRY.depth) {
      if (current !== record && current.id === record.id) break;
      current.depth = IN_CHAIN;
      chain.push(current);
      current = this.writtenParent(current);
    }
    // A cycle (current already on the chain) counts as reaching a root.
    let parent = current && current.depth >= 0 ? current : undefined;
    for (let i = chain.length - 1; i >= 0; i--) {
      const r = chain[i]!;
      r.depth = parent ? parent.depth + 1 : 0;
      r.thinking = r.type === 'thinking_level_change' ? r : parent?.thinking;
      r.model =
        r.type === 'model_change' || (r.type === 'message' && r.role === 'assistant')
          ? r
          : parent?.model;
      r.compaction = r.type === 'compaction' ? r : parent?.compaction;
      parent = r;
    }
    return record;
  }

  /** The record `parentId` names (as written), if there is one: `byId.get(parentId)`. */
  private writtenParent(record: EntryRecord): EntryRecord | undefined {
    if (record.parentId === null) return undefined;
    // The slot holds the last record with the parent's id, as `byId` does.
    if (record.parentSlot >= 0) return this.records[record.parentSlot];
    return this.byId.get(record.parentId);
  }

  /**
   * The parent record by `parentId` as written; undefined at a root, a gap or a cycle. Both
   * records must have their ancestry.
   */
  parentOf(record: EntryRecord): EntryRecord | undefined {
    const parent = this.writtenParent(record);
    return parent && parent.depth >= 0 && parent.depth < record.depth ? parent : undefined;
  }

  /**
   * The leaf a file opens at: the last entry, or, when that is a leaf marker, the marker's
   * parent (null for a root marker or a missing parent). See decision 001.
   */
  leafOnOpen(): string | null {
    if (this.lastId === undefined) return null;
    const last = this.byId.get(this.lastId);
    if (!last?.marker) return this.lastId;
    return last.parentId !== null && this.byId.has(last.parentId) ? last.parentId : null;
  }

  /** Ids on the path from `leafId` up to (and including) depth `minDepth`. */
  pathIdsDownTo(leafId: string | null, minDepth: number): Set<string> {
    const ids = new Set<string>();
    const leaf = leafId === null ? undefined : this.byId.get(leafId);
    for (let r = leaf && this.ancestry(leaf); r && r.depth >= minDepth; r = this.parentOf(r)) {
      ids.add(r.id);
    }
    return ids;
  }

  applyLabel(targetId: string, label: string | undefined, timestamp: string): void {
    if (label) this.labels.set(targetId, { label, timestamp });
    else this.labels.delete(targetId);
  }

  nodeOf(record: EntryRecord): TreeNode {
    const label = this.labels.get(record.id)?.label;
    return label === undefined ? { ...record.node } : { ...record.node, label };
  }

  getNode(id: string): TreeNode | undefined {
    const record = this.byId.get(id);
    if (!record || record.marker) return undefined;
    return this.nodeOf(record);
  }

  /**
   * Every node in file order. Unlabelled nodes are the skeleton's own objects, not copies (a big
   * tree is 20,000 of them), hence read-only; a labelled one is a copy that carries its label.
   */
  getTree(): Readonly<TreeNode>[] {
    const nodes: Readonly<TreeNode>[] = [];
    const { labels } = this;
    const labelled = labels.size > 0;
    for (const record of this.records) {
      if (record.marker) continue;
      const label = labelled ? labels.get(record.id)?.label : undefined;
      nodes.push(label === undefined ? record.node : { ...record.node, label });
    }
    return nodes;
  }

  /** Children by entry timestamp, oldest first (file order breaks ties). */
  getChildren(parentId: string | null): TreeNode[] {
    const list = this.childLists().get(parentId) ?? [];
    const ids = typeof list === 'string' ? [list] : list;
    const nodes: TreeNode[] = [];
    for (const id of ids) {
      const record = this.byId.get(id);
      if (record && record.node.parentId === parentId) nodes.push(this.nodeOf(record));
    }
    const time = (node: TreeNode): number => new Date(node.timestamp).getTime();
    return nodes.sort((a, b) => time(a) - time(b));
  }

  /** Root-first records from a root to `id`, following `parentId` as written (markers included). */
  pathTo(id: string | null): EntryRecord[] {
    const path: EntryRecord[] = [];
    const seen = new Set<string>();
    let current = id === null ? undefined : this.byId.get(id);
    while (current && !seen.has(current.id)) {
      seen.add(current.id);
      path.push(current);
      current = current.parentId === null ? undefined : this.byId.get(current.parentId);
    }
    return path.reverse();
  }
}

function addChild(children: Map<string | null, string | string[]>, record: EntryRecord): void {
  if (record.marker) return;
  const key = record.node.parentId;
  const list = children.get(key);
  if (list === undefined) children.set(key, record.id);
  else if (typeof list === 'string') children.set(key, [list, record.id]);
  else list.push(record.id);
}
