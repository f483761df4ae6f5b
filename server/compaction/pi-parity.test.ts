import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionEntrySchema, type SessionEntry } from '../../shared/session-entries.js';
import { collectEntriesForBranchSummary, prepareBranchEntries } from './branch-summary.js';
import { isContextOverflow } from '../models/context-overflow.js';
import { findCutPoint, isValidCutPoint } from './cut-point.js';
import { computeFileLists, formatFileOperations } from './file-operations.js';
import { prepareCompaction } from './prepare-compaction.js';
import { serializeConversation } from './serialize-conversation.js';
import { convertToLlm } from '../models/convert-to-llm.js';
import { buildSessionContextFromEntries } from '../store/session-context.js';
import { loadPiOracle, type PiOracle } from './test-support/pi-oracle.js';
import { prng } from '../../shared/prng.js';
import { randomPiSession } from '../test-support/random-pi-session.js';
import {
  calculateContextTokens,
  estimateContextTokens,
  estimateTokens,
  shouldCompact,
} from './token-estimates.js';

/*
 * Arbor's compaction arithmetic against pi 0.73.1's own functions, on the real pi fixtures and on
 * random trees written by pi's SessionManager, at many leaves.
 */

const FIXTURES = '/work/shared/fixtures/pi';
let pi: PiOracle;
let tmp: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PiManager = any;

interface Case {
  name: string;
  manager: PiManager;
}

const cases: Case[] = [];

beforeAll(async () => {
  pi = await loadPiOracle();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-compaction-parity-'));
  for (const file of fs.readdirSync(FIXTURES).filter((name) => name.endsWith('.jsonl'))) {
    if (file === 'rpc-events.jsonl') continue;
    // pi migrates v1 files in place on open, so it gets a copy.
    const copy = path.join(tmp, file);
    fs.copyFileSync(path.join(FIXTURES, file), copy);
    fs.chmodSync(copy, 0o644);
    cases.push({ name: file, manager: pi.sessionManager.SessionManager.open(copy, tmp) });
  }
  for (let seed = 1; seed <= 25; seed++) {
    cases.push({ name: `random-${seed}`, manager: randomPiSession(seed, 160).manager });
  }
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function parsed(entries: unknown[]): SessionEntry[] {
  return entries.map((entry) => SessionEntrySchema.parse(entry));
}

/** The messages a model sees for a root-to-leaf path, as Arbor builds them. */
function pathContext(path: SessionEntry[]) {
  return buildSessionContextFromEntries(path, path.at(-1)?.id).messages;
}

/** Up to `count` leaves of a session: the current one, the last entry, and a spread of others. */
function leavesOf(manager: PiManager, count = 12): string[] {
  const ids: string[] = manager.getEntries().map((entry: { id: string }) => entry.id);
  const leaves = new Set<string>();
  const current = manager.getLeafId();
  if (current) leaves.add(current);
  const last = ids[ids.length - 1];
  if (last) leaves.add(last);
  const step = Math.max(1, Math.floor(ids.length / count));
  for (let i = 0; i < ids.length; i += step) leaves.add(ids[i]!);
  return [...leaves];
}

function comparable(preparation: unknown): unknown {
  if (!preparation) return preparation;
  const p = preparation as Record<string, unknown> & {
    fileOps: { read: Set<string>; written: Set<string>; edited: Set<string> };
  };
  return {
    ...p,
    fileOps: {
      read: [...p.fileOps.read].sort(),
      written: [...p.fileOps.written].sort(),
      edited: [...p.fileOps.edited].sort(),
    },
  };
}

describe('compaction arithmetic matches pi 0.73.1', () => {
  it('has fixtures and generated sessions to compare', () => {
    expect(cases.length).toBeGreaterThanOrEqual(28);
    expect(cases.some((c) => c.name === 'v1-large-session.jsonl')).toBe(true);
  });

  it('estimates every message and every context as pi does', () => {
    let messages = 0;
    for (const { manager } of cases) {
      for (const leaf of leavesOf(manager)) {
        const rawPath = manager.getBranch(leaf);
        const context = pathContext(parsed(rawPath));
        const piContext = pi.sessionManager.buildSessionContext(rawPath).messages;
        expect(context).toEqual(piContext);
        for (const message of context) {
          expect(estimateTokens(message)).toBe(pi.compaction.estimateTokens(message));
          messages++;
        }
        expect(estimateContextTokens(context)).toEqual(
          pi.compaction.estimateContextTokens(piContext),
        );
      }
    }
    expect(messages).toBeGreaterThan(500);
  });

  it('finds the same cut point for every budget and start', () => {
    const rand = prng(7);
    let compared = 0;
    let splits = 0;
    for (const { manager } of cases) {
      for (const leaf of leavesOf(manager, 6)) {
        const rawPath = manager.getBranch(leaf);
        const ours = parsed(rawPath);
        for (const keep of [0, 1, 50, 300, 1000, 5000, 20000, 1e9]) {
          const start = rand() < 0.5 ? 0 : Math.floor(rand() * rawPath.length);
          const expected = pi.compaction.findCutPoint(rawPath, start, rawPath.length, keep);
          const actual = findCutPoint(ours, start, ours.length, keep);
          expect(actual).toEqual(expected);
          if (actual.isSplitTurn) splits++;
          // With any valid point in range, the kept part never starts at a tool result.
          const cutEntry = ours[actual.firstKeptEntryIndex];
          if (ours.slice(start).some(isValidCutPoint) && cutEntry?.type === 'message')
            expect(cutEntry.message.role).not.toBe('toolResult');
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
    expect(splits).toBeGreaterThan(10);
  });

  it('prepares the same compaction (span, split turn, previous summary, files, tokensBefore)', () => {
    let prepared = 0;
    let withPrevious = 0;
    for (const { manager } of cases) {
      for (const leaf of leavesOf(manager)) {
        const rawPath = manager.getBranch(leaf);
        for (const keepRecentTokens of [100, 2000, 20000]) {
          const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens };
          const expected = pi.compaction.prepareCompaction(rawPath, settings);
          const actual = prepareCompaction(parsed(rawPath), settings);
          expect(comparable(actual)).toEqual(comparable(expected));
          if (actual) prepared++;
          if (actual?.previousSummary) withPrevious++;
          if (actual) {
            const lists = computeFileLists(actual.fileOps);
            expect(lists).toEqual(pi.utils.computeFileLists(expected.fileOps));
            expect(formatFileOperations(lists.readFiles, lists.modifiedFiles)).toBe(
              pi.utils.formatFileOperations(lists.readFiles, lists.modifiedFiles),
            );
          }
        }
      }
    }
    expect(prepared).toBeGreaterThan(200);
    expect(withPrevious).toBeGreaterThan(20);
  });

  it('serialises conversations exactly as pi, tool results cut at 2,000 characters', () => {
    let longResults = 0;
    for (const { manager } of cases) {
      for (const leaf of leavesOf(manager, 4)) {
        const rawPath = manager.getBranch(leaf);
        const context = pathContext(parsed(rawPath));
        const llm = convertToLlm(context);
        expect(llm).toEqual(pi.messages.convertToLlm(context));
        const text = serializeConversation(llm);
        expect(text).toBe(pi.utils.serializeConversation(pi.messages.convertToLlm(context)));
        longResults += (text.match(/more characters truncated\]/g) ?? []).length;
      }
    }
    expect(longResults).toBeGreaterThan(0);
  });

  it('collects and budgets the same branch entries when the leaf moves', () => {
    const rand = prng(11);
    let nonEmpty = 0;
    for (const { manager } of cases) {
      const ids: string[] = manager.getEntries().map((entry: { id: string }) => entry.id);
      for (let i = 0; i < 15 && ids.length > 0; i++) {
        const from = ids[Math.floor(rand() * ids.length)]!;
        const to = ids[Math.floor(rand() * ids.length)]!;
        const store = {
          getBranch: (id?: string | null) => parsed(manager.getBranch(id ?? undefined)),
          getEntry: (id: string) => {
            const entry = manager.getEntry(id);
            return entry ? SessionEntrySchema.parse(entry) : undefined;
          },
        };
        const expected = pi.branch.collectEntriesForBranchSummary(manager, from, to);
        const actual = collectEntriesForBranchSummary(store, from, to);
        expect(actual).toEqual(expected);
        if (actual.entries.length > 0) nonEmpty++;
        for (const budget of [0, 50, 500, 5000]) {
          const ours = prepareBranchEntries(actual.entries, budget);
          const theirs = pi.branch.prepareBranchEntries(expected.entries, budget);
          expect(comparable(ours)).toEqual(comparable(theirs));
        }
      }
    }
    expect(nonEmpty).toBeGreaterThan(50);
  });

  it('returns no entries when there is no old leaf', () => {
    const store = { getBranch: () => [], getEntry: () => undefined };
    expect(collectEntriesForBranchSummary(store, null, 'abc')).toEqual({
      entries: [],
      commonAncestorId: null,
    });
  });
});

describe('token thresholds and overflow detection match pi', () => {
  it('computes context tokens from usage and decides compaction at the same threshold', () => {
    const usages = [
      { input: 10, output: 5, cacheRead: 3, cacheWrite: 1, totalTokens: 0 },
      { input: 10, output: 5, cacheRead: 3, cacheWrite: 1, totalTokens: 100 },
      { input: 10, output: 5, cacheRead: 3, cacheWrite: 1 },
    ];
    for (const usage of usages) {
      expect(calculateContextTokens(usage)).toBe(pi.compaction.calculateContextTokens(usage));
    }
    for (const tokens of [0, 111615, 111616, 111617, 200000]) {
      for (const enabled of [true, false]) {
        const settings = { enabled, reserveTokens: 16384, keepRecentTokens: 20000 };
        expect(shouldCompact(tokens, 128000, settings)).toBe(
          pi.compaction.shouldCompact(tokens, 128000, settings),
        );
      }
    }
  });

  it('recognises overflow errors as pi 1.6 does (its pi-ai rule), where pi 0.73 differed', async () => {
    const { isContextOverflow: pi073 } = await import('@mariozechner/pi-ai');
    // [error, pi 1.6's answer]
    const errors: [string, boolean][] = [
      [
        "This model's maximum context length is 4000 tokens. However, your messages resulted in 4100 tokens.",
        true,
      ],
      ['prompt is too long: 213462 tokens > 200000 maximum', true],
      ['Your input exceeds the context window of this model', true],
      // pi 1.6 no longer reads a bare 400 as an overflow (pi 0.73 did).
      ['400 status code (no body)', false],
      ['context_length_exceeded', true],
      ['ThrottlingException: Too many tokens, please wait', true],
      ['Rate limit reached: too many tokens per minute', false],
      ['Service unavailable: try later', false],
      ['boom', false],
    ];
    const base = {
      role: 'assistant' as const,
      content: [],
      api: 'openai-completions',
      provider: 'demo',
      model: 'arbor-demo',
      timestamp: 1,
    };
    let changed = 0;
    for (const [errorMessage, expected] of errors) {
      const message = {
        ...base,
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
        stopReason: 'error' as const,
        errorMessage,
      };
      expect(isContextOverflow(message, 4000), errorMessage).toBe(expected);
      if (pi073(message as never, 4000) !== expected) changed++;
    }
    expect(changed).toBe(1);
    for (const [stopReason, input, output, expected] of [
      ['stop', 5000, 10, true],
      ['stop', 3000, 10, false],
      ['length', 3990, 0, true],
      ['length', 3990, 5, false],
    ] as const) {
      const message = {
        ...base,
        usage: { input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output },
        stopReason,
      };
      expect(isContextOverflow(message, 4000), `${stopReason} ${input}/${output}`).toBe(expected);
    }
  });
});
