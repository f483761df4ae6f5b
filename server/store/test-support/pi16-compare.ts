import fs from 'node:fs';
import { expect } from 'vitest';
import { sessionInfoOf } from '../session-listing.js';
import { LEAF_MARKER_TYPE } from '../session-index.js';
import { SessionStore } from '../session-store.js';
import { currentSystemMessage, systemMessageText } from '../../../shared/system-prompt.js';
import { readWithPi16, type Pi16Session } from './pi16-oracle.js';

/*
 * Arbor beside pi 1.6 on one file: at the leaf and with every entry as leaf, Arbor's context (what
 * `arbor context FILE --leaf ID` prints: `SessionStore.buildSessionContext`) equals pi 1.6's
 * `buildSessionContext()` as JSON; every entry is a readable tree node; the file is left as it was.
 */

export interface Pi16Comparison {
  pi: Pi16Session;
  /** How many leaves were compared. */
  compared: number;
}

function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

function leafMarkerIds(file: string): Set<string> {
  const ids = new Set<string>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes(LEAF_MARKER_TYPE)) continue;
    const entry = JSON.parse(line) as { type?: string; customType?: string; id?: string };
    if (entry.type === 'custom' && entry.customType === LEAF_MARKER_TYPE && entry.id)
      ids.add(entry.id);
  }
  return ids;
}

export async function expectSameAsPi16(file: string): Promise<Pi16Comparison> {
  const before = fs.readFileSync(file);
  const pi = await readWithPi16(file);
  const info = await sessionInfoOf(file);
  // pi's listing gives up on a file whose user message has null content; Arbor lists it all the same.
  expect(info?.id).toBe(pi.sessionId);
  if (pi.listing) {
    expect({
      id: info?.id,
      name: info?.name,
      messageCount: info?.messageCount,
      firstMessage: info?.firstMessage,
    }).toEqual(JSON.parse(JSON.stringify(pi.listing)));
  }
  const store = SessionStore.openReadOnly(file);
  try {
    expect(store.sessionId).toBe(pi.sessionId);
    expect(store.getLeafId()).toBe(pi.leafId);
    expect(asJson(store.buildSessionContext()), 'context at the leaf').toEqual(pi.context);
    for (const id of pi.entryIds) {
      const context = store.buildSessionContext(id);
      expect(asJson(context), `context at ${id}`).toEqual(pi.byEntry[id]);
      const prompt = currentSystemMessage(context.messages);
      expect(asJson(prompt ?? null), `prompt at ${id}`).toEqual(pi.promptByEntry[id]!.message);
      expect(prompt ? systemMessageText(prompt) : '').toBe(pi.promptByEntry[id]!.text);
    }
    expect(store.openReport.badLines, 'unreadable lines').toEqual([]);
    const tree = store.getTree();
    // Arbor's leaf markers (in files Arbor wrote) are entries to pi, and no node of Arbor's tree.
    const markers = leafMarkerIds(file);
    expect(tree.map((node) => node.id)).toEqual(pi.entryIds.filter((id) => !markers.has(id)));
    // pi 1.6's own kinds say what they are (an empty message may have an empty preview).
    for (const node of tree) {
      if (node.type === 'message' && node.role !== 'system') continue;
      if (node.type === 'custom_message' || node.type === 'branch_summary') continue;
      expect(node.preview, `preview of ${node.type} ${node.id}`).not.toBe('');
    }
  } finally {
    store.close();
  }
  expect(fs.readFileSync(file).equals(before), 'the file is unchanged').toBe(true);
  return { pi, compared: pi.entryIds.length };
}
