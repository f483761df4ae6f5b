import type { ProviderMessage } from '../models/model-stream.js';
import {
  serializeMessage,
  TOOL_RESULT_MAX_CHARS,
  userMessageText,
} from './serialize-conversation.js';
import { omittedNotice, summaryPromptText } from './summary-prompts.js';
import { CodedError } from '../errors/coded-error.js';

/*
 * A summary request must fit the model that answers it, or the compaction meant to rescue a long
 * session fails for the very reason it was started. The request is measured as the model measures
 * it (about four characters a token); when it is too big, old tool output is cut down first, then
 * the oldest messages are left out (user requests last), and the prompt says so.
 */

/** Tool-output caps tried in turn, oldest results first at each level; 0 leaves the output out. */
const TOOL_RESULT_LEVELS = [TOOL_RESULT_MAX_CHARS, 1000, 500, 200, 0];

/** A user message longer than this is shortened (head and tail kept) before it is left out. */
const USER_MESSAGE_SHORT_CHARS = 2000;

/** Tokens a chat request costs beyond its text (roles, framing): a small allowance per message. */
const PER_MESSAGE_OVERHEAD_TOKENS = 8;

export interface FitInput {
  messages: readonly ProviderMessage[];
  systemPrompt: string;
  instructions: string;
  previousSummary?: string;
  /** The most the request may cost, in estimated tokens. */
  inputBudgetTokens: number;
}

export interface FittedSummaryRequest {
  promptText: string;
  estimatedTokens: number;
  /** Messages shortened beyond the usual 2,000-character cap on tool output. */
  prunedMessages: number;
  /** Messages left out entirely, oldest first. */
  omittedMessages: number;
}

export class SummaryRequestTooLargeError extends CodedError {
  readonly code = 'summary_request_too_large';
  constructor(
    readonly neededTokens: number,
    readonly budgetTokens: number,
  ) {
    super(
      `The summary request cannot fit the model: even with all conversation left out it needs about ${neededTokens} tokens, and ${budgetTokens} are available.`,
    );
    this.name = 'SummaryRequestTooLargeError';
  }
}

/** Estimated tokens of a single-user-message request with a system prompt. */
export function estimateRequestTokens(systemPrompt: string, promptText: string): number {
  return Math.ceil((systemPrompt.length + promptText.length) / 4) + 2 * PER_MESSAGE_OVERHEAD_TOKENS;
}

/** The budget for a request's input: the window less the answer's room and a small margin. */
export function summaryInputBudget(contextWindow: number, maxOutputTokens: number): number {
  const margin = Math.ceil(contextWindow * 0.02) + 16;
  return contextWindow - maxOutputTokens - margin;
}

/** Keeps the beginning and the end of a long text, saying how much of the middle was cut. */
export function shortenMiddle(text: string, maxChars = USER_MESSAGE_SHORT_CHARS): string {
  if (text.length <= maxChars) return text;
  const head = Math.ceil(maxChars * 0.75);
  const tail = maxChars - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}\n\n[... ${cut} characters omitted ...]\n\n${text.slice(text.length - tail)}`;
}

/**
 * The previous summary, shortened in the middle when it alone would take more than half of the
 * budget (one written for a model with a larger window, say), so that compaction stays possible.
 */
function fitPreviousSummary(input: FitInput): string | undefined {
  const previous = input.previousSummary;
  if (!previous) return previous;
  const withoutSummary = estimateRequestTokens(
    input.systemPrompt,
    summaryPromptText('', input.instructions),
  );
  const room = Math.floor((input.inputBudgetTokens - withoutSummary) / 2) * 4;
  if (previous.length <= room || room <= 0) return previous;
  return shortenMiddle(previous, room - 64);
}

interface MessageSlot {
  message: ProviderMessage;
  isToolResult: boolean;
  isUser: boolean;
  cap: number;
  included: boolean;
  pruned: boolean;
  chars: number;
}

function measure(slot: MessageSlot): number {
  const parts = serializeMessage(slot.message, slot.cap);
  let chars = 2 * parts.length;
  for (const part of parts) chars += part.length;
  return chars;
}

/**
 * The largest faithful request within the budget. Throws `SummaryRequestTooLargeError` when even
 * the instructions and previous summary alone do not fit.
 *
 * Linear in the conversation: the size of what is included is kept as a running sum that every
 * step updates, so asking "does it fit yet?" before each step costs nothing (decision 054).
 */
export function fitSummaryRequest(input: FitInput): FittedSummaryRequest {
  const slots: MessageSlot[] = input.messages.map((message) => ({
    message,
    isToolResult: message.role === 'toolResult',
    isUser: message.role === 'user',
    cap: TOOL_RESULT_MAX_CHARS,
    included: true,
    pruned: false,
    chars: 0,
  }));
  let includedChars = 0;
  for (const slot of slots) {
    slot.chars = measure(slot);
    includedChars += slot.chars;
  }
  let omittedCount = 0;

  const previousSummary = fitPreviousSummary(input);
  const emptyPrompt = summaryPromptText('', input.instructions, previousSummary);
  const fixedTokens = estimateRequestTokens(input.systemPrompt, emptyPrompt);
  // The notice is counted from the start so that adding it never tips a fitted request over.
  const noticeChars = omittedNotice(input.messages.length).length + 2;
  const fits = (): boolean =>
    fixedTokens + Math.ceil((includedChars + (omittedCount > 0 ? noticeChars : 0)) / 4) <=
    input.inputBudgetTokens;
  const remeasure = (slot: MessageSlot): void => {
    const chars = measure(slot);
    includedChars += chars - slot.chars;
    slot.chars = chars;
  };
  const leaveOut = (slot: MessageSlot): void => {
    slot.included = false;
    includedChars -= slot.chars;
    omittedCount++;
  };

  for (const level of TOOL_RESULT_LEVELS.slice(1)) {
    if (fits()) break;
    for (const slot of slots) {
      if (fits()) break;
      if (!slot.isToolResult || slot.cap <= level) continue;
      const before = slot.chars;
      slot.cap = level;
      remeasure(slot);
      if (slot.chars < before) slot.pruned = true;
    }
  }
  // Shed the oldest messages, keeping the user's own words as long as anything else can go;
  // then shorten long user messages (oldest first) before leaving any of them out.
  for (const slot of slots) {
    if (fits()) break;
    if (slot.included && !slot.isUser) leaveOut(slot);
  }
  for (const slot of slots) {
    if (fits()) break;
    if (!slot.included || slot.message.role !== 'user') continue;
    const text = userMessageText(slot.message);
    if (text.length <= USER_MESSAGE_SHORT_CHARS) continue;
    slot.message = { ...slot.message, content: [{ type: 'text', text: shortenMiddle(text) }] };
    remeasure(slot);
    slot.pruned = true;
  }
  for (const slot of slots) {
    if (fits()) break;
    if (slot.included) leaveOut(slot);
  }
  if (!fits()) {
    throw new SummaryRequestTooLargeError(fixedTokens + noticeChars / 4, input.inputBudgetTokens);
  }

  const omittedMessages = omittedCount;
  const paragraphs: string[] = [];
  if (omittedMessages > 0) paragraphs.push(omittedNotice(omittedMessages));
  let prunedMessages = 0;
  for (const slot of slots) {
    if (!slot.included) continue;
    if (slot.pruned) prunedMessages++;
    for (const part of serializeMessage(slot.message, slot.cap)) paragraphs.push(part);
  }
  const promptText = summaryPromptText(
    paragraphs.join('\n\n'),
    input.instructions,
    previousSummary,
  );
  return {
    promptText,
    estimatedTokens: estimateRequestTokens(input.systemPrompt, promptText),
    prunedMessages,
    omittedMessages,
  };
}
