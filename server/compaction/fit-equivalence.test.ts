import { describe, expect, it } from 'vitest';
import type { ProviderMessage } from '../models/model-stream.js';
import { emptyUsage } from '../../shared/messages.js';
import { prng } from '../../shared/prng.js';
import {
  fitSummaryRequest,
  SummaryRequestTooLargeError,
  type FitInput,
} from './fit-summary-request.js';
import {
  INITIAL_SUMMARY_INSTRUCTIONS,
  SUMMARIZATION_SYSTEM_PROMPT,
  UPDATE_SUMMARY_INSTRUCTIONS,
} from './summary-prompts.js';
import { quadraticFitSummaryRequest } from './test-support/quadratic-fit.js';

/*
 * The linear fitting gives exactly the request the quadratic one gave (kept in test-support), on
 * random conversations at budgets from "nothing fits" to "everything fits": every step of the
 * cascade (tool output cut at each level, messages shed, user messages shortened, user messages
 * shed, the previous summary shortened, the refusal) is reached many times.
 */

type Rand = () => number;

/** Random characters (words, spaces, newlines), sliced from a pool so that long texts are cheap. */
const POOL = (() => {
  const rand = prng(99);
  const alphabet = 'abcdefgh ijk\nlmn';
  let out = '';
  for (let i = 0; i < 50_000; i++) out += alphabet[Math.floor(rand() * alphabet.length)];
  return out;
})();

function text(rand: Rand, max: number): string {
  const length = Math.floor(rand() ** 3 * max);
  let out = '';
  while (out.length < length) {
    const start = Math.floor(rand() * POOL.length);
    out += POOL.slice(start, start + length - out.length);
  }
  return out;
}

function randomMessage(rand: Rand): ProviderMessage {
  const roll = rand();
  if (roll < 0.3) {
    // Long user messages (over 2,000 characters) are shortened before they are shed.
    const body = text(rand, rand() < 0.2 ? 9000 : 600);
    if (rand() < 0.3) return { role: 'user', content: body, timestamp: 1 };
    return {
      role: 'user',
      content: [
        { type: 'text', text: body },
        ...(rand() < 0.2 ? [{ type: 'image' as const, data: 'aGk=', mimeType: 'image/png' }] : []),
        ...(rand() < 0.3 ? [{ type: 'text' as const, text: text(rand, 300) }] : []),
      ],
      timestamp: 1,
    };
  }
  if (roll < 0.6) {
    const content: Extract<ProviderMessage, { role: 'assistant' }>['content'] = [];
    const blocks = Math.floor(rand() * 4);
    for (let i = 0; i < blocks; i++) {
      const kind = rand();
      if (kind < 0.4) content.push({ type: 'text', text: text(rand, 1500) });
      else if (kind < 0.6) content.push({ type: 'thinking', thinking: text(rand, 1500) });
      else
        content.push({
          type: 'toolCall',
          id: `c${i}`,
          name: rand() < 0.5 ? 'read' : 'bash',
          arguments: { path: text(rand, 40), n: Math.floor(rand() * 100) },
        });
    }
    return {
      role: 'assistant',
      content,
      api: 'openai-completions',
      provider: 'demo',
      model: 'arbor-demo',
      usage: emptyUsage(),
      stopReason: 'stop',
      timestamp: 1,
    };
  }
  // Tool output around every cap (2,000 / 1,000 / 500 / 200 characters) and far above them.
  const sizes = [150, 400, 800, 1500, 2600, 12000];
  const size = sizes[Math.floor(rand() * sizes.length)] ?? 100;
  return {
    role: 'toolResult',
    toolCallId: 'c0',
    toolName: 'read',
    content: [
      { type: 'text', text: text(rand, size) },
      ...(rand() < 0.1 ? [{ type: 'image' as const, data: 'aGk=', mimeType: 'image/png' }] : []),
    ],
    isError: rand() < 0.1,
    timestamp: 1,
  };
}

function randomInput(seed: number): FitInput[] {
  const rand = prng(seed);
  const count = Math.floor(rand() * (rand() < 0.2 ? 400 : 40));
  const messages = Array.from({ length: count }, () => randomMessage(rand));
  const previousSummary =
    rand() < 0.4 ? `## Goal\n${text(rand, rand() < 0.3 ? 40_000 : 3000)}` : undefined;
  const instructions = previousSummary ? UPDATE_SUMMARY_INSTRUCTIONS : INITIAL_SUMMARY_INSTRUCTIONS;
  const full = fitSummaryRequest({
    messages,
    systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
    instructions,
    ...(previousSummary ? { previousSummary } : {}),
    inputBudgetTokens: Number.MAX_SAFE_INTEGER,
  }).estimatedTokens;
  // Budgets spread from below the fixed part to above the whole conversation.
  return Array.from({ length: 8 }, () => ({
    messages,
    systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
    instructions,
    ...(previousSummary ? { previousSummary } : {}),
    inputBudgetTokens: Math.floor(200 + rand() ** 2 * full * 1.1),
  }));
}

type Outcome = ReturnType<typeof fitSummaryRequest> | { refused: number[] };

function outcome(fit: (input: FitInput) => ReturnType<typeof fitSummaryRequest>, input: FitInput) {
  try {
    return fit(input) as Outcome;
  } catch (error) {
    if (!(error instanceof SummaryRequestTooLargeError)) throw error;
    return { refused: [error.neededTokens, error.budgetTokens] };
  }
}

describe('the linear summary-request fitting', () => {
  it('gives exactly the quadratic fitting’s request on random conversations', () => {
    const reached = { pruned: 0, omitted: 0, refused: 0, whole: 0 };
    for (let seed = 1; seed <= 300; seed++) {
      for (const input of randomInput(seed)) {
        const linear = outcome(fitSummaryRequest, input);
        const quadratic = outcome(quadraticFitSummaryRequest, input);
        expect(linear, `seed ${seed}, budget ${input.inputBudgetTokens}`).toEqual(quadratic);
        if ('refused' in linear) reached.refused++;
        else if (linear.omittedMessages > 0) reached.omitted++;
        else if (linear.prunedMessages > 0) reached.pruned++;
        else reached.whole++;
      }
    }
    // Every branch of the cascade was compared, not only the easy ones.
    for (const count of Object.values(reached)) expect(count).toBeGreaterThan(50);
  });

  it('fits a 30,000-message conversation with most of it left out', () => {
    const rand = prng(7);
    const messages = Array.from({ length: 30_000 }, () => randomMessage(rand));
    const fitted = fitSummaryRequest({
      messages,
      systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
      instructions: INITIAL_SUMMARY_INSTRUCTIONS,
      inputBudgetTokens: 100_000,
    });
    expect(fitted.estimatedTokens).toBeLessThanOrEqual(100_000);
    expect(fitted.omittedMessages).toBeGreaterThan(20_000);
    expect(fitted.promptText).toContain(
      `[Earlier material omitted: ${fitted.omittedMessages} older messages`,
    );
  });
});
