import fs from 'node:fs';
import path from 'node:path';
import { migrateSessionEntries, type FileEntry } from '@mariozechner/pi-coding-agent';
import { describe, expect, it } from 'vitest';
import { SessionStore } from './session-store.js';
import { migrateContent } from './session-migration.js';
import { copyFixture, PI_FIXTURES, useTempDirs } from './test-support/temp-dir.js';
import { expectSameContextsAsPi } from './test-support/pi-compare.js';

const tempDir = useTempDirs();

function piMigrated(file: string): FileEntry[] {
  const entries = fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as FileEntry);
  migrateSessionEntries(entries);
  return entries;
}

describe('migration of v1 and v2 files', () => {
  it('migrates pi’s large v1 fixture in place to the same tree pi makes, ids aside', () => {
    const dir = tempDir();
    const file = copyFixture('v1-large-session.jsonl', dir);
    const expected = piMigrated(path.join(PI_FIXTURES, 'v1-large-session.jsonl'));
    const store = SessionStore.open(file);
    expect(store.openReport.migratedFromVersion).toBe(1);
    expect(store.header.version).toBe(3);
    expect(store.header).toMatchObject({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
    const tree = store.getTree();
    expect(tree).toHaveLength(expected.length - 1);
    // A single chain, in file order.
    tree.forEach((node, i) => expect(node.parentId).toBe(i === 0 ? null : tree[i - 1]!.id));
    expect(tree.map((n) => n.type)).toEqual(expected.slice(1).map((e) => e.type));
    store.close();
    // The file on disk is v3, complete, and no backup or temp file is left behind.
    expect(fs.readdirSync(dir)).toEqual(['v1-large-session.jsonl']);
    const firstLine = JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0]!);
    expect(firstLine.version).toBe(3);
    expect(expectSameContextsAsPi(file)).toBe(expected.length - 1);
  });

  it('maps firstKeptEntryIndex (counting the header) to the new id', () => {
    const v1 = [
      '{"type":"session","id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"}',
      '{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"a","timestamp":1}}',
      '{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"user","content":"b","timestamp":2}}',
      '{"type":"compaction","timestamp":"2025-01-01T00:00:03.000Z","summary":"s","firstKeptEntryIndex":2,"tokensBefore":5}',
    ].join('\n');
    const result = migrateContent(`${v1}\n`);
    const lines = result.bytes
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[3].firstKeptEntryId).toBe(lines[2].id);
    expect(lines[3]).not.toHaveProperty('firstKeptEntryIndex');
    expect(Object.keys(lines[0]).at(-1)).toBe('version');
    expect(Object.keys(lines[1]).slice(0, 4)).toEqual(['type', 'id', 'parentId', 'timestamp']);
  });

  it('renames v2 hookMessage roles to custom', () => {
    const v2 = [
      '{"type":"session","version":2,"id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"}',
      '{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"hookMessage","customType":"x","content":"c","display":true,"timestamp":1}}',
    ].join('\n');
    const file = path.join(tempDir(), 'v2.jsonl');
    fs.writeFileSync(file, `${v2}\n`);
    const store = SessionStore.open(file);
    expect(store.openReport.migratedFromVersion).toBe(2);
    expect(store.getEntry('aaaaaaaa')).toMatchObject({ message: { role: 'custom' } });
    expect(store.buildSessionContext().messages[0]?.role).toBe('custom');
    store.close();
  });

  it('carries lines that are not JSON over verbatim instead of dropping them', () => {
    const v1 = [
      '{"type":"session","id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"}',
      '{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"a","timestamp":1}}',
      'garbage line',
      '{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"user","content":"b","timestamp":2}}',
    ].join('\n');
    const file = path.join(tempDir(), 'v1.jsonl');
    fs.writeFileSync(file, `${v1}\n`);
    const store = SessionStore.open(file);
    expect(store.openReport.badLines).toEqual([3]);
    expect(store.getTree()).toHaveLength(2);
    store.close();
    expect(fs.readFileSync(file, 'utf8').split('\n')[2]).toBe('garbage line');
  });

  it('keeps the original as a backup when a torn last line is left out', () => {
    const dir = tempDir();
    const v1 = [
      '{"type":"session","id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"}',
      '{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"a","timestamp":1}}',
      '{"type":"message","timestamp":"2025-01-01T00:00:02',
    ].join('\n');
    const file = path.join(dir, 'v1.jsonl');
    fs.writeFileSync(file, v1);
    const store = SessionStore.open(file);
    expect(store.openReport.tornTailBytes).toBeGreaterThan(0);
    expect(store.getTree()).toHaveLength(1);
    store.close();
    expect(fs.readFileSync(`${file}.v1.bak`, 'utf8')).toBe(v1);
  });

  it('a read-only open migrates in memory and leaves the file as it was', () => {
    const dir = tempDir();
    const file = copyFixture('v1-large-session.jsonl', dir);
    const before = fs.readFileSync(file);
    const store = SessionStore.openReadOnly(file);
    expect(store.openReport.migratedFromVersion).toBe(1);
    expect(store.buildSessionContext().messages.length).toBeGreaterThan(0);
    store.close();
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('a crash before the rename leaves the original in place; the next open completes', () => {
    const dir = tempDir();
    const file = copyFixture('v1-large-session.jsonl', dir);
    const before = fs.readFileSync(file);
    // What a crash mid-migration leaves: a partial temp file next to the untouched original.
    fs.writeFileSync(`${file}.migrating`, before.subarray(0, 1000));
    const store = SessionStore.open(file);
    expect(store.openReport.migratedFromVersion).toBe(1);
    store.close();
    expect(fs.readdirSync(dir)).toEqual(['v1-large-session.jsonl']);
  });
});
