import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { afterEach, describe, expect, it } from 'vitest';
import { userMessage } from '../../test-support/messages.js';
import { SessionStore } from '../session-store.js';
import { piFileWriter } from './pi-file-writer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('piFileWriter', () => {
  it('writes a file pi and Arbor both read as written, fields in pi order, a second apart', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-pi-file-'));
    dirs.push(dir);
    const writer = piFileWriter('/w', Date.parse('2026-03-01T09:00:00.000Z'));
    const root = writer.append({ type: 'message', message: userMessage('first') }, null);
    const side = writer.append({ type: 'message', message: userMessage('side') }, root);
    const leaf = writer.append({ type: 'message', message: userMessage('main') }, root);
    expect(writer.count).toBe(3);
    expect(new Set([root, side, leaf]).size).toBe(3);
    const file = writer.write(path.join(dir, 'sessions'));

    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(Object.keys(JSON.parse(lines[1]!)).slice(0, 4)).toEqual([
      'type',
      'id',
      'parentId',
      'timestamp',
    ]);
    expect(JSON.parse(lines[3]!).timestamp).toBe('2026-03-01T09:00:03.000Z');
    expect(path.basename(file)).toBe(`2026-03-01T09-00-00-000Z_${writer.sessionId}.jsonl`);

    const pi = SessionManager.open(file, path.join(dir, 'pi'));
    expect(pi.getBranch().map((e) => e.id)).toEqual([root, leaf]);
    const store = SessionStore.openReadOnly(file);
    expect(store.getTree().map((n) => n.id)).toEqual([root, side, leaf]);
    expect(store.getLeafId()).toBe(leaf);
  });
});
