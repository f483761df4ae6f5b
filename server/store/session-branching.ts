import type { LabelEntry, SessionEntry, SessionHeader } from '../../shared/session-entries.js';
import { CURRENT_SESSION_VERSION } from '../../shared/session-entries.js';
import type { UserContent } from '../../shared/messages.js';
import { generateEntryId, uuidv7 } from './entry-ids.js';
import { serializeLine } from './session-lines.js';
import type { BodyCache } from './body-cache.js';
import type { EntryRecord, LabelState } from './session-index.js';
import type { FileLock } from './file-lock.js';
import { createSessionFile } from './new-session-file.js';
import { resolveTargetDir } from './session-paths.js';

/*
 * The content of a session file that holds one path of another session (pi's
 * `createBranchedSession`): a new header pointing at the parent file, the path's entries with their
 * ids and timestamps, then the labels of path entries re-created as new label entries chained after
 * the last one. Label entries and leaf markers on the path are left out; unlike pi, an entry whose
 * parent was left out is re-attached to the nearest kept ancestor, so the copied path stays whole.
 */

/** One element of the source path: its body, or its raw line when this version cannot read it. */
export type PathLine =
  | { kind: 'entry'; entry: SessionEntry; leaveOut: boolean }
  | { kind: 'raw'; id: string; text: string };

/**
 * The lines of a path as a copy writes them: entries as parsed (leaf markers and labels left out,
 * labels are re-applied by `branchedContent`), lines that do not parse kept as they were.
 */
export function pathLines(records: Iterable<EntryRecord>, bodies: BodyCache): PathLine[] {
  const lines: PathLine[] = [];
  for (const record of records) {
    const entry = bodies.get(record, false);
    if (entry) {
      lines.push({ kind: 'entry', entry, leaveOut: record.marker || entry.type === 'label' });
    } else {
      const text = bodies.rawLine(record);
      if (text !== undefined) lines.push({ kind: 'raw', id: record.id, text });
    }
  }
  return lines;
}

export function newHeader(cwd: string, parentSession?: string): SessionHeader {
  const header: SessionHeader = {
    type: 'session',
    version: CURRENT_SESSION_VERSION,
    id: uuidv7(),
    timestamp: new Date().toISOString(),
    cwd,
  };
  if (parentSession !== undefined) header.parentSession = parentSession;
  return header;
}

export function branchedContent(
  header: SessionHeader,
  path: readonly PathLine[],
  labels: ReadonlyMap<string, LabelState>,
): string {
  const lines: string[] = [serializeLine(header)];
  const ids = new Set<string>();
  let lastKept: string | null = null;
  let skippedSinceKept = false;
  for (const item of path) {
    if (item.kind === 'raw') {
      lines.push(`${item.text}\n`);
      ids.add(item.id);
      lastKept = item.id;
      skippedSinceKept = false;
      continue;
    }
    const { entry } = item;
    if (item.leaveOut) {
      skippedSinceKept = true;
      continue;
    }
    const written: SessionEntry =
      skippedSinceKept && entry.parentId !== lastKept ? { ...entry, parentId: lastKept } : entry;
    lines.push(serializeLine(written));
    ids.add(entry.id);
    lastKept = entry.id;
    skippedSinceKept = false;
  }
  let parentId = lastKept;
  for (const [targetId, state] of labels) {
    if (!ids.has(targetId)) continue;
    const id = generateEntryId(ids);
    ids.add(id);
    const label: LabelEntry = {
      type: 'label',
      id,
      parentId,
      timestamp: state.timestamp,
      targetId,
      label: state.label,
    };
    lines.push(serializeLine(label));
    parentId = id;
  }
  return lines.join('');
}

/** The text pi puts back in the editor for a forked user message: text blocks joined. */
/**
 * Writes a new session file in `sessionDir` (absolute) holding `lines`, the path of the session
 * `parentFile`, with `labels` re-applied (`branchedContent`); its lock is held.
 */
export function writeBranchedFile(
  sessionDir: string,
  cwd: string,
  parentFile: string | undefined,
  lines: PathLine[],
  labels: ReadonlyMap<string, LabelState>,
): { file: string; lock: FileLock } {
  const header = newHeader(cwd, parentFile);
  const content = branchedContent(header, lines, labels);
  const { file, lock, writer } = createSessionFile(resolveTargetDir(sessionDir), header, content);
  writer.close();
  return { file, lock };
}

export function userMessageText(content: UserContent): string {
  if (typeof content === 'string') return content;
  return content
    .filter((block) => block.type === 'text')
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');
}
