import type { AgentMessage } from '../../shared/messages.js';
import { userMessageText } from './serialize-conversation.js';
import { shortenMiddle } from './fit-summary-request.js';

/*
 * The user's latest request survives every summary word for word. Models paraphrase, drop long
 * prompts, or keep only a first line; so after the model answers, the summary is checked and the
 * request appended when it is not there in full.
 */

/** The text of the newest `user` message among the given messages (not custom or summaries). */
export function latestUserRequest(messages: readonly AgentMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'user') continue;
    const text = userMessageText(message).trim();
    if (text) return text;
  }
  return undefined;
}

/** Whitespace and blockquote markers do not count: "> a\n> b" holds "a b". */
function normalise(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/^\s*>\s?/, ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function containsVerbatim(summary: string, request: string): boolean {
  return normalise(summary).includes(normalise(request));
}

/**
 * The summary, with the request appended as a quoted block under a heading when the summary does
 * not already hold it. Requests longer than `maxChars` keep their beginning and end.
 */
export function ensureLatestRequest(
  summary: string,
  request: string | undefined,
  maxChars: number,
  heading = '## Latest User Request (verbatim)',
): string {
  if (!request) return summary;
  const kept = shortenMiddle(request, Math.max(200, maxChars));
  if (containsVerbatim(summary, kept)) return summary;
  const quoted = kept
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
  return `${summary.trimEnd()}\n\n${heading}\n${quoted}`;
}
