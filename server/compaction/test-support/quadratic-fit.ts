import type { ProviderMessage } from '../../models/model-stream.js';
import {
  estimateRequestTokens,
  shortenMiddle,
  SummaryRequestTooLargeError,
  type FitInput,
  type FittedSummaryRequest,
} from '../fit-summary-request.js';
import {
  serializeMessage,
  TOOL_RESULT_MAX_CHARS,
  userMessageText,
} from '../serialize-conversation.js';
import { omittedNotice, summaryPromptText } from '../summary-prompts.js';

/*
 * The summary-request fitting as it was before it was made linear (commit 1f2ae63), kept only so
 * that the property test can check the linear one gives exactly the same requests. It asks "does
 * it fit?" by summing every message before each step: quadratic, 24.6 s for 30,000 messages.
 */

const TOOL_RESULT_LEVELS = [TOOL_RESULT_MAX_CHARS, 1000, 500, 200, 0];
const USER_MESSAGE_SHORT_CHARS = 2000;

/** The old `fitPreviousSummary`, word for word. */
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
  return parts.reduce((sum, part) => sum + part.length, 0) + 2 * parts.length;
}

/**
 * The largest faithful request within the budget. Throws `SummaryRequestTooLargeError` when even
 * the instructions and previous summary alone do not fit.
 */
export function quadraticFitSummaryRequest(input: FitInput): FittedSummaryRequest {
  const slots: MessageSlot[] = input.messages.map((message) => ({
    message,
    isToolResult: message.role === 'toolResult',
    isUser: message.role === 'user',
    cap: TOOL_RESULT_MAX_CHARS,
    included: true,
    pruned: false,
    chars: 0,
  }));
  for (const slot of slots) slot.chars = measure(slot);

  const previousSummary = fitPreviousSummary(input);
  const emptyPrompt = summaryPromptText('', input.instructions, previousSummary);
  const fixedTokens = estimateRequestTokens(input.systemPrompt, emptyPrompt);
  // The notice is counted from the start so that adding it never tips a fitted request over.
  const noticeChars = omittedNotice(input.messages.length).length + 2;
  const total = (): number => {
    let chars = 0;
    for (const slot of slots) if (slot.included) chars += slot.chars;
    const omitted = slots.some((slot) => !slot.included);
    return fixedTokens + Math.ceil((chars + (omitted ? noticeChars : 0)) / 4);
  };
  const fits = (): boolean => total() <= input.inputBudgetTokens;

  for (const level of TOOL_RESULT_LEVELS.slice(1)) {
    if (fits()) break;
    for (const slot of slots) {
      if (fits()) break;
      if (!slot.isToolResult || slot.cap <= level) continue;
      const before = slot.chars;
      slot.cap = level;
      slot.chars = measure(slot);
      if (slot.chars < before) slot.pruned = true;
    }
  }
  // Shed the oldest messages, keeping the user's own words as long as anything else can go;
  // then shorten long user messages (oldest first) before leaving any of them out.
  for (const slot of slots) {
    if (fits()) break;
    if (slot.included && !slot.isUser) slot.included = false;
  }
  for (const slot of slots) {
    if (fits()) break;
    if (!slot.included || slot.message.role !== 'user') continue;
    const text = userMessageText(slot.message);
    if (text.length <= USER_MESSAGE_SHORT_CHARS) continue;
    slot.message = { ...slot.message, content: [{ type: 'text', text: shortenMiddle(text) }] };
    slot.chars = measure(slot);
    slot.pruned = true;
  }
  for (const slot of slots) {
    if (fits()) break;
    if (slot.included) slot.included = false;
  }
  if (!fits()) {
    throw new SummaryRequestTooLargeError(fixedTokens + noticeChars / 4, input.inputBudgetTokens);
  }

  const omittedMessages = slots.filter((slot) => !slot.included).length;
  const paragraphs: string[] = [];
  if (omittedMessages > 0) paragraphs.push(omittedNotice(omittedMessages));
  for (const slot of slots) {
    if (slot.included) paragraphs.push(...serializeMessage(slot.message, slot.cap));
  }
  const promptText = summaryPromptText(
    paragraphs.join('\n\n'),
    input.instructions,
    previousSummary,
  );
  return {
    promptText,
    estimatedTokens: estimateRequestTokens(input.systemPrompt, promptText),
    prunedMessages: slots.filter((slot) => slot.included && slot.pruned).length,
    omittedMessages,
  };
}
