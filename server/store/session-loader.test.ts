import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessionBytes, loadSessionFd } from './session-loader.js';
import { SessionStore } from './session-store.js';
import { PI16_FIXTURES } from './test-support/pi16-oracle.js';
import { randomSession } from '../test-support/random-session.js';
import { copyFixture, PI_FIXTURES, useTempDirs } from './test-support/temp-dir.js';
import { assistantMessage, toolResultMessage, userMessage } from '../test-support/messages.js';

const tempDir = useTempDirs();

/** `file` loaded in chunks of `chunkBytes` through a real descriptor. */
function streamed(file: string, chunkBytes: number) {
  const fd = fs.openSync(file, 'r');
  try {
    return loadSessionFd(fd, file, chunkBytes);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Streaming a file in chunks of any size indexes it exactly as reading it whole does: the same
 * records (offsets, lengths, lines, skeletons), bodies, report, valid length and line count.
 */
function expectStreamingEqualsWhole(file: string): void {
  const whole = loadSessionBytes(fs.readFileSync(file), file);
  for (const chunkBytes of [1, 7, 64, 1000, 64 * 1024]) {
    expect(streamed(file, chunkBytes), `${path.basename(file)}, ${chunkBytes}-byte chunks`).toEqual(
      whole,
    );
  }
}

/** A session with every kind of entry, written by Arbor in `dir`. */
function writtenSession(dir: string, seed: number): string {
  const store = SessionStore.create({ cwd: dir, sessionDir: dir });
  randomSession(store, seed, 120);
  store.close();
  return store.file!;
}

describe('reading a session file in chunks', () => {
  it('indexes pi’s and Arbor’s files as reading them whole does, whatever the chunk size', () => {
    const dir = tempDir();
    // pi's large v1 file, migrated to v3 by a writable open: about a megabyte of lines.
    const migrated = copyFixture('v1-large-session.jsonl', dir);
    SessionStore.open(migrated).close();
    const files = [
      ...['v3-fork.jsonl', 'v3-rpc-session.jsonl', 'v3-sessionmanager-edge-cases.jsonl'].map(
        (name) => path.join(PI_FIXTURES, name),
      ),
      ...fs.readdirSync(PI16_FIXTURES).map((name) => path.join(PI16_FIXTURES, name)),
      migrated,
      writtenSession(dir, 1),
      writtenSession(dir, 2),
    ];
    for (const file of files) expectStreamingEqualsWhole(file);
  });

  it('finds the same torn tail, missing newline, blank and bad lines at any chunk boundary', () => {
    const dir = tempDir();
    const source = fs.readFileSync(writtenSession(dir, 3), 'utf8');
    const lines = source.trimEnd().split('\n');
    const variants: Record<string, string> = {
      torn: `${source}{"type":"message","id":"cut`,
      noFinalNewline: source.trimEnd(),
      blankLines: `${lines.slice(0, 5).join('\n')}\n\n   \n${lines.slice(5).join('\n')}\n\n`,
      blankTail: `${source}  `,
      badLine: `${lines.slice(0, 4).join('\n')}\nnot json\n${lines.slice(4).join('\n')}\n`,
      crlf: `${lines.join('\r\n')}\r\n`,
      duplicateHeader: `${source}${lines[0]}\n`,
    };
    for (const [name, text] of Object.entries(variants)) {
      const file = path.join(dir, `${name}.jsonl`);
      fs.writeFileSync(file, text);
      expectStreamingEqualsWhole(file);
    }
    const torn = streamed(path.join(dir, 'torn.jsonl'), 64);
    expect('report' in torn && torn.report.tornTailBytes).toBe(
      '{"type":"message","id":"cut'.length,
    );
  });

  it('opens a session whose lines are longer than a chunk, their bodies whole', () => {
    const dir = tempDir();
    const store = SessionStore.create({ cwd: dir, sessionDir: dir });
    const big = 'x'.repeat(3 * 1024 * 1024); // three chunks of the real reader
    store.appendMessage(userMessage('read the big file'));
    store.appendMessage(
      assistantMessage('', { toolCalls: [{ id: 'call_1', name: 'read', args: { p: 'big' } }] }),
    );
    store.appendMessage(toolResultMessage('call_1', big));
    store.appendMessage(assistantMessage('done'));
    const context = store.buildSessionContext();
    store.close();

    const reopened = SessionStore.openReadOnly(store.file!);
    expect(reopened.openReport.badLines).toEqual([]);
    expect(reopened.buildSessionContext()).toEqual(context);
    expect(JSON.stringify(reopened.buildSessionContext())).toContain(big);
    reopened.close();
  });

  it('hands a v1 or v2 file to the migration without indexing it', () => {
    const v1 = path.join(PI_FIXTURES, 'v1-large-session.jsonl');
    const result = streamed(v1, 64);
    expect('migrate' in result && result.migrate.type).toBe('session');
  });
});
