import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SessionEntrySchema } from '../../shared/session-entries.js';
import { prng } from '../../shared/prng.js';
import { isSessionEntry } from './entry-check.js';
import { SessionStore } from './session-store.js';
import { PI_FIXTURES, useTempDirs } from './test-support/temp-dir.js';
import { randomSession } from '../test-support/random-session.js';

/*
 * The compiled check against the schema it is compiled from: on every line of pi's files and of a
 * random session Arbor writes, and on thousands of broken copies of them (a key taken away, a
 * value of another type put in its place, at every depth), `isSessionEntry` answers what
 * `SessionEntrySchema.safeParse` answers.
 */

const tempDir = useTempDirs();
const PI16_FIXTURES = path.join(import.meta.dirname, 'test-support/fixtures/pi16');

function linesOf(file: string): unknown[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown)
    .filter((value) => (value as { type?: unknown }).type !== 'session');
}

let sampled: unknown[] | undefined;

/** Every entry of pi's fixtures and of one random session Arbor writes (read once per file run). */
function sampleEntries(): unknown[] {
  if (sampled) return sampled;
  const files = [
    ...fs.readdirSync(PI_FIXTURES).map((name) => path.join(PI_FIXTURES, name)),
    ...fs.readdirSync(PI16_FIXTURES).map((name) => path.join(PI16_FIXTURES, name)),
  ].filter((file) => file.endsWith('.jsonl') && !file.endsWith('rpc-events.jsonl'));
  const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
  randomSession(store, 7, 150);
  files.push(store.file!);
  store.close();
  sampled = files.flatMap(linesOf);
  return sampled;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Values of every JSON kind (and a few shapes the schema looks for) to put in a key's place. */
const REPLACEMENTS: Json[] = [
  null,
  0,
  -1.5,
  '',
  'x',
  true,
  [],
  {},
  [1],
  [{ type: 'text' }],
  { type: 'text', text: 1 },
];

/** Copies of `value` with one change each: a key removed or a value replaced, at any depth. */
function* mutations(value: Json, depth = 0): Generator<Json> {
  if (depth > 4 || value === null || typeof value !== 'object') return;
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  for (const key of keys) {
    const child = (value as Record<string | number, Json>)[key]!;
    const copy = (next: Json | undefined): Json => {
      if (Array.isArray(value)) {
        const list = [...value];
        if (next === undefined) list.splice(key as number, 1);
        else list[key as number] = next;
        return list;
      }
      const object = { ...value };
      if (next === undefined) delete object[key as string];
      else object[key as string] = next;
      return object;
    };
    yield copy(undefined);
    for (const replacement of REPLACEMENTS) yield copy(replacement);
    for (const inner of mutations(child, depth + 1)) yield copy(inner);
  }
}

describe('the compiled entry check', () => {
  it('compiles the whole schema (no part left to the generic parser)', () => {
    expect(() => z.compile(SessionEntrySchema, { strict: true })).not.toThrow();
  });

  it('answers as the schema does on every entry pi and Arbor write', () => {
    const entries = sampleEntries();
    expect(entries.length).toBeGreaterThan(300);
    for (const entry of entries) {
      expect(isSessionEntry(entry)).toBe(SessionEntrySchema.safeParse(entry).success);
    }
  });

  it('answers as the schema does on broken copies of them', () => {
    const entries = sampleEntries();
    const rand = prng(12);
    // Every kind of entry and message, and a random sample of the rest.
    const seen = new Set<string>();
    const chosen = entries.filter((entry) => {
      const e = entry as { type: string; message?: { role?: string } };
      const kind = `${e.type}/${e.message?.role ?? ''}`;
      if (!seen.has(kind)) {
        seen.add(kind);
        return true;
      }
      return rand() < 0.05;
    });
    let accepted = 0;
    let rejected = 0;
    const disagreements: unknown[] = [];
    for (const entry of chosen) {
      for (const mutant of mutations(entry as Json)) {
        const expected = SessionEntrySchema.safeParse(mutant).success;
        if (isSessionEntry(mutant) !== expected) disagreements.push(mutant);
        if (expected) accepted++;
        else rejected++;
      }
    }
    expect(disagreements.slice(0, 3)).toEqual([]);
    expect(seen.size).toBeGreaterThan(10);
    expect(accepted).toBeGreaterThan(1000);
    expect(rejected).toBeGreaterThan(1000);
  });
});
