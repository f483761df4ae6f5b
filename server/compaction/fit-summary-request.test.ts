import { describe, expect, it } from 'vitest';
import type { AssistantMessage, ToolResultMessage, UserMessage } from '../../shared/messages.js';
import { emptyUsage } from '../../shared/messages.js';
import {
  estimateRequestTokens,
  fitSummaryRequest,
  shortenMiddle,
  SummaryRequestTooLargeError,
  summaryInputBudget,
} from './fit-summary-request.js';
import { serializeConversation } from './serialize-conversation.js';
import { SUMMARIZATION_SYSTEM_PROMPT, INITIAL_SUMMARY_INSTRUCTIONS } from './summary-prompts.js';

const user = (text: string): UserMessage => ({ role: 'user', content: text, timestamp: 1 });
const assistant = (text: string): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  api: 'openai-completions',
  provider: 'demo',
  model: 'arbor-demo',
  usage: emptyUsage(),
  stopReason: 'stop',
  timestamp: 1,
});
const toolResult = (text: string): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: 'c1',
  toolName: 'read',
  content: [{ type: 'text', text }],
  isError: false,
  timestamp: 1,
});

const base = {
  systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
  instructions: INITIAL_SUMMARY_INSTRUCTIONS,
};

describe('fitting a summary request to the model', () => {
  it('sends the conversation exactly as serialised when it fits', () => {
    const messages = [user('fix the build'), assistant('done'), toolResult('x'.repeat(3000))];
    const fitted = fitSummaryRequest({ ...base, messages, inputBudgetTokens: 100_000 });
    expect(fitted.promptText).toContain(serializeConversation(messages));
    expect(fitted.omittedMessages).toBe(0);
    expect(fitted.prunedMessages).toBe(0);
    expect(fitted.estimatedTokens).toBe(
      estimateRequestTokens(base.systemPrompt, fitted.promptText),
    );
  });

  it('cuts old tool output before leaving out any message', () => {
    const messages = [
      user('read both files'),
      toolResult('A'.repeat(2500)),
      toolResult('B'.repeat(2500)),
      assistant('both read'),
    ];
    const full = fitSummaryRequest({ ...base, messages, inputBudgetTokens: 100_000 });
    const budget = full.estimatedTokens - 200;
    const fitted = fitSummaryRequest({ ...base, messages, inputBudgetTokens: budget });
    expect(fitted.estimatedTokens).toBeLessThanOrEqual(budget);
    expect(fitted.omittedMessages).toBe(0);
    expect(fitted.prunedMessages).toBeGreaterThan(0);
    expect(fitted.promptText).toContain('[User]: read both files');
    expect(fitted.promptText).toContain('[Assistant]: both read');
    // The older result is cut first.
    expect(/A{10,}/.exec(fitted.promptText)?.[0].length).toBe(1000);
    expect(/B{10,}/.exec(fitted.promptText)?.[0].length).toBe(2000);
  });

  it('sheds the oldest messages, says so, and keeps user requests longest', () => {
    const messages: (UserMessage | AssistantMessage)[] = [];
    for (let i = 0; i < 40; i++) {
      messages.push(user(`request number ${i}`), assistant(`answer ${i} `.repeat(40)));
    }
    const budget = 1500;
    const fitted = fitSummaryRequest({ ...base, messages, inputBudgetTokens: budget });
    expect(fitted.estimatedTokens).toBeLessThanOrEqual(budget);
    expect(fitted.omittedMessages).toBeGreaterThan(0);
    expect(fitted.promptText).toMatch(/\[Earlier material omitted: \d+ older messages/);
    for (let i = 0; i < 40; i++) expect(fitted.promptText).toContain(`request number ${i}`);
    expect(fitted.promptText).toContain('answer 39');
    expect(fitted.promptText).not.toContain('answer 0 ');
  });

  it('shortens a huge request, keeping its beginning and end, before leaving it out', () => {
    const huge = `BEGIN ${'word '.repeat(5000)} END`;
    const fitted = fitSummaryRequest({ ...base, messages: [user(huge)], inputBudgetTokens: 2500 });
    expect(fitted.promptText).toContain('BEGIN');
    expect(fitted.promptText).toContain('END');
    expect(fitted.promptText).toMatch(/characters omitted/);
    expect(fitted.estimatedTokens).toBeLessThanOrEqual(2500);
  });

  it('shortens an oversized previous summary rather than failing', () => {
    const previousSummary = `## Goal\nOLD START ${'detail '.repeat(6000)} OLD END`;
    const fitted = fitSummaryRequest({
      ...base,
      instructions: 'Update it.',
      previousSummary,
      messages: [user('new request')],
      inputBudgetTokens: 3000,
    });
    expect(fitted.estimatedTokens).toBeLessThanOrEqual(3000);
    expect(fitted.promptText).toContain('OLD START');
    expect(fitted.promptText).toContain('OLD END');
    expect(fitted.promptText).toContain('[User]: new request');
  });

  it('refuses clearly when even the instructions do not fit', () => {
    expect(() =>
      fitSummaryRequest({ ...base, messages: [user('hi')], inputBudgetTokens: 100 }),
    ).toThrow(SummaryRequestTooLargeError);
  });

  it('keeps a margin below the window for the answer', () => {
    expect(summaryInputBudget(4000, 800)).toBeLessThan(3200);
    expect(summaryInputBudget(4000, 800)).toBeGreaterThan(3000);
  });

  it('shortens in the middle only when needed', () => {
    expect(shortenMiddle('short', 100)).toBe('short');
    const long = shortenMiddle('a'.repeat(500) + 'b'.repeat(500), 100);
    expect(long.startsWith('a'.repeat(75))).toBe(true);
    expect(long.endsWith('b'.repeat(25))).toBe(true);
    expect(long).toContain('[... 900 characters omitted ...]');
  });
});
