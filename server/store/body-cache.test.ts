import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../shared/session-entries.js';
import { userMessage } from '../test-support/messages.js';
import { BodyCache, bufferSource, type BodySource } from './body-cache.js';
import type { EntryRecord } from './session-index.js';

/*
 * The recent bodies: what was read lately stays in memory up to a byte budget of JSON lines
 * (32 MiB), the least recently read leaving first; anything else is read from the file again.
 */

const BUDGET = 32 * 1024 * 1024;
const LINE_BYTES = 1024 * 1024;

/** `count` message entries of about LINE_BYTES each, as one file's bytes and their records. */
function sessionLines(count: number): { bytes: Buffer; records: EntryRecord[] } {
  const lines: string[] = [];
  const records: EntryRecord[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const id = `e${String(i).padStart(4, '0')}`;
    const entry: SessionEntry = {
      type: 'message',
      id,
      parentId: i === 0 ? null : `e${String(i - 1).padStart(4, '0')}`,
      timestamp: new Date(1_700_000_000_000 + i * 1000).toISOString(),
      message: userMessage('x'.repeat(LINE_BYTES - 200)),
    };
    const line = JSON.stringify(entry);
    const length = Buffer.byteLength(line);
    records.push({ id, offset, length, usable: true } as EntryRecord);
    lines.push(line);
    offset += length + 1;
  }
  return { bytes: Buffer.from(lines.join('\n') + '\n'), records };
}

/** A source over `bytes` that counts its reads. */
function countingSource(bytes: Buffer): BodySource & { reads: number } {
  const inner = bufferSource(bytes);
  const source = {
    reads: 0,
    read: (offset: number, length: number) => {
      source.reads++;
      return inner.read(offset, length);
    },
    readBytes: (offset: number, length: number) => {
      source.reads++;
      return inner.readBytes(offset, length);
    },
    close: () => inner.close(),
  };
  return source;
}

function cacheOver(count: number) {
  const { bytes, records } = sessionLines(count);
  const source = countingSource(bytes);
  const cache = new BodyCache(new Map(), source, () => {
    throw new Error('every line here is readable');
  });
  const fit = Math.floor(BUDGET / records[0]!.length);
  return { cache, source, records, fit };
}

describe('BodyCache recent bodies', () => {
  it('keeps recently read bodies up to 32 MiB of lines and reads the oldest again', () => {
    const { cache, source, records, fit } = cacheOver(40);
    expect(fit).toBeLessThan(40);
    for (const record of records) expect(cache.get(record, false)?.id).toBe(record.id);
    expect(source.reads).toBe(40);

    // The newest `fit` bodies are all still in memory: no read for any of them.
    for (let i = records.length - 1; i >= records.length - fit; i--) {
      expect(cache.get(records[i]!, false)?.id).toBe(records[i]!.id);
    }
    expect(source.reads).toBe(40);

    // The one before them was pushed out by the budget and comes from the file again.
    const evicted = records[records.length - fit - 1]!;
    expect(cache.get(evicted, false)?.id).toBe(evicted.id);
    expect(source.reads).toBe(41);
  });

  it('a body read again moves to the back of the line, so the next oldest leaves instead', () => {
    const { cache, source, records, fit } = cacheOver(fit0());
    for (let i = 0; i < fit; i++) cache.get(records[i]!, false);
    expect(source.reads).toBe(fit);
    cache.get(records[0]!, false); // touched: now the newest
    expect(source.reads).toBe(fit);
    cache.get(records[fit]!, false); // one over the budget: the oldest untouched one leaves
    expect(source.reads).toBe(fit + 1);

    cache.get(records[0]!, false);
    expect(source.reads).toBe(fit + 1);
    cache.get(records[1]!, false);
    expect(source.reads).toBe(fit + 2);
  });

  it('holds a body on the active path apart from the recent ones, with no second read', () => {
    const { cache, source, records } = cacheOver(2);
    cache.get(records[0]!, true);
    expect(cache.retainedIds.has(records[0]!.id)).toBe(true);
    cache.get(records[0]!, false);
    cache.prefetch(records, false);
    expect(source.reads).toBe(2); // one read for the retained body, one prefetch for the other
    cache.get(records[1]!, false);
    expect(source.reads).toBe(2);
  });
});

/** One more entry than the budget holds, for the second test. */
function fit0(): number {
  const { records } = sessionLines(1);
  return Math.floor(BUDGET / records[0]!.length) + 1;
}
