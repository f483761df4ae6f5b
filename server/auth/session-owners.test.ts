import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionOwners } from './session-owners.js';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-owners-'));
});
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const ownersFile = () => path.join(dataDir, 'owners.json');
const onDisk = () =>
  (JSON.parse(fs.readFileSync(ownersFile(), 'utf8')) as { owners: Record<string, string> }).owners;

describe('SessionOwners', () => {
  it('answers from memory at once and writes the file off the calling thread', async () => {
    const owners = new SessionOwners(dataDir);
    owners.setOwner('s1', 'ada');
    expect(owners.ownerOf('s1')).toBe('ada');
    expect(fs.existsSync(ownersFile())).toBe(false);
    await owners.flush();
    expect(onDisk()).toEqual({ s1: 'ada' });
    expect(new SessionOwners(dataDir).ownerOf('s1')).toBe('ada');
  });

  it('keeps every change made while a write runs, and writes them all', async () => {
    const owners = new SessionOwners(dataDir);
    for (let i = 0; i < 50; i++) {
      owners.setOwner(`s${i}`, `user${i % 3}`);
      if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    owners.forget('s7');
    for (let i = 0; i < 50; i++)
      expect(owners.ownerOf(`s${i}`)).toBe(i === 7 ? null : `user${i % 3}`);
    await owners.flush();
    const written = onDisk();
    expect(Object.keys(written)).toHaveLength(49);
    expect(written.s49).toBe('user1');
    expect(written.s7).toBeUndefined();
  });

  it('picks up an edit made to the file by someone else once its own writes are done', async () => {
    const owners = new SessionOwners(dataDir);
    owners.setOwner('s1', 'ada');
    await owners.flush();
    fs.writeFileSync(ownersFile(), JSON.stringify({ version: 1, owners: { s1: 'grace' } }));
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(ownersFile(), later, later);
    expect(owners.ownerOf('s1')).toBe('grace');
  });

  it('keeps the record in memory, reports a write that fails, and writes it with the next change', async () => {
    const owners = new SessionOwners(dataDir);
    owners.setOwner('s1', 'ada');
    // A directory where the file goes: the rename over it fails.
    fs.mkdirSync(ownersFile());
    expect(owners.ownerOf('s1')).toBe('ada');
    await expect(owners.flush()).rejects.toThrow();
    fs.rmdirSync(ownersFile());
    owners.setOwner('s2', 'grace');
    await owners.flush();
    expect(onDisk()).toEqual({ s1: 'ada', s2: 'grace' });
    expect(fs.readdirSync(dataDir)).toEqual(['owners.json']);
  });
});
