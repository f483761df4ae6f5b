import { z } from 'zod';

/*
 * The demo model's behaviour as a pure function of an OpenAI chat-completions request: what it
 * answers, which tools it calls, which faults it injects. The HTTP layer (demo-model-handler.ts)
 * only streams what this module decides. See docs/decisions/010-demo-model.md for the script.
 */

const ContentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

const ToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

export const ChatMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(ContentPartSchema), z.null()]).optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const ChatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(ChatMessageSchema).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  tools: z.array(z.unknown()).nullish(),
});

export interface DemoToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type DemoReply =
  { kind: 'text'; text: string } | { kind: 'tools'; text: string; toolCalls: DemoToolCall[] };

/** Faults and pacing requested by the latest user message. */
export interface DemoDirectives {
  fail?: { status: number; retryAfterMs?: number };
  slowMs?: number;
  cutAfterChunks?: number;
}

export function messageText(message: ChatMessage): string {
  const content = message.content;
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part) => (part.type === 'text' && part.text !== undefined ? part.text : ''))
    .filter((text) => text.length > 0)
    .join('\n');
}

export function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim().length > 0) ?? '';
  return line.trim();
}

/** Index of the latest user message, or -1. */
export function latestUserIndex(messages: ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return i;
  return -1;
}

const TOOL_LINE = /^\/tool\s+([A-Za-z0-9_.-]+)\s*(.*)$/;
const FAIL_LINE = /^\/fail\s+(\d{3})(?:\s+(\d+))?\s*$/;
const SLOW_LINE = /^\/slow\s+(\d+)\s*$/;

/** The longest pause `/slow N` asks for between chunks, in ms. */
export const MAX_SLOW_MS = 1_000;
const CUT_LINE = /^\/cut\s+(\d+)\s*$/;

export function parseDirectives(text: string): DemoDirectives {
  const directives: DemoDirectives = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const fail = FAIL_LINE.exec(line);
    if (fail) {
      const status = Number(fail[1]);
      directives.fail = { status };
      if (status === 429) directives.fail.retryAfterMs = fail[2] ? Number(fail[2]) : 1000;
      continue;
    }
    const slow = SLOW_LINE.exec(line);
    if (slow) {
      directives.slowMs = Math.min(Number(slow[1]), MAX_SLOW_MS);
      continue;
    }
    const cut = CUT_LINE.exec(line);
    if (cut) directives.cutAfterChunks = Number(cut[1]);
  }
  return directives;
}

/**
 * `/tool NAME {json}` lines of a user message, in order. Arguments that are not a JSON object are
 * passed through as written, so tests can see how the agent handles malformed calls.
 */
export function parseToolLines(text: string, idPrefix: string): DemoToolCall[] {
  const calls: DemoToolCall[] = [];
  for (const raw of text.split('\n')) {
    const match = TOOL_LINE.exec(raw.trim());
    if (!match) continue;
    const name = match[1] ?? '';
    const args = (match[2] ?? '').trim();
    calls.push({
      id: `${idPrefix}_${calls.length + 1}`,
      name,
      arguments: args === '' ? '{}' : args,
    });
  }
  return calls;
}

/**
 * The request without its mid-conversation system messages (pi 1.6 sends prompt patches and
 * tool declarations where they stand, one after tool results included): the demo answers the
 * conversation, and its leading prompt says whether a summary is asked for.
 */
export function withoutLaterInstructions(messages: ChatMessage[]): ChatMessage[] {
  return messages.filter(
    (message, index) => index === 0 || (message.role !== 'system' && message.role !== 'developer'),
  );
}

/** True when the request asks for a summary (compaction or branch summary). */
export function isSummaryRequest(messages: ChatMessage[]): boolean {
  return messages.some((message) => {
    const text = messageText(message);
    if (message.role === 'system' || message.role === 'developer')
      return /summari[sz]ation assistant|summari[sz]e/i.test(text);
    return message.role === 'user' && text.includes('<conversation>');
  });
}

export const DEFAULT_SECTIONS = [
  'Goal',
  'Constraints & Preferences',
  'Progress',
  'Key Decisions',
  'Next Steps',
  'Critical Context',
];

/*
 * The parsing below is linear in the request, whatever it holds: anyone who may call the model
 * chooses every byte, and a lazy `[\s\S]*?` between tags rescans the rest of the text from each
 * unclosed opening tag (1.4 MB of `<conversation>` once held the server for 34 s).
 */

/** The text with every `<tag>…</tag>` block cut out; an unclosed block runs to the end. */
function stripBlock(text: string, tag: string): string {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  let out = '';
  let from = 0;
  for (;;) {
    const start = text.indexOf(open, from);
    if (start < 0) return out + text.slice(from);
    out += text.slice(from, start);
    const end = text.indexOf(close, start + open.length);
    if (end < 0) return out;
    from = end + close.length;
  }
}

/** What the first `<tag>…</tag>` block holds, or undefined when there is no closed one. */
function firstBlock(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(`</${tag}>`, start + open.length);
  return end < 0 ? undefined : text.slice(start + open.length, end);
}

/** `## Heading` lines of the instructions (outside the quoted conversation), in order. */
export function requestedSections(instructions: string): string[] {
  const outside = stripBlock(stripBlock(instructions, 'conversation'), 'previous-summary');
  const sections: string[] = [];
  for (const line of outside.split('\n')) {
    const heading = /^##\s(.*)$/.exec(line.trim())?.[1]?.trim();
    if (heading && !sections.includes(heading)) sections.push(heading);
  }
  return sections.length > 0 ? sections : DEFAULT_SECTIONS;
}

/** First lines of the user requests quoted in the serialised conversation, in order. */
export function quotedUserRequests(text: string): string[] {
  const conversation = firstBlock(text, 'conversation') ?? text;
  const requests: string[] = [];
  for (const line of conversation.split('\n')) {
    const match = /^\[User\]:\s*(.*)$/.exec(line);
    if (match?.[1]) requests.push(match[1].trim());
  }
  return requests;
}

export function buildSummary(messages: ChatMessage[]): string {
  const userTexts = messages.filter((m) => m.role === 'user').map(messageText);
  const prompt = userTexts.join('\n');
  const sections = requestedSections(prompt);
  const requests = quotedUserRequests(prompt);
  const quoted = requests.map((request) => `"${request}"`);
  const lines: string[] = [];
  for (const section of sections) {
    lines.push(`## ${section}`);
    lines.push(...sectionBody(section, quoted));
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}

function sectionBody(section: string, quoted: string[]): string[] {
  const first = quoted[0] ?? '(no user request found)';
  const last = quoted[quoted.length - 1] ?? first;
  switch (section.toLowerCase()) {
    case 'goal':
    case 'original request':
      return [`The user asked: ${first}`];
    case 'progress':
    case 'early progress':
      return quoted.length > 0 ? quoted.map((q) => `- [x] Answered ${q}`) : ['- (none)'];
    case 'key decisions':
      return ['- **Demo model**: answers are deterministic quotes of the requests'];
    case 'next steps':
      return [`1. Continue after ${last}`];
    case 'critical context':
    case 'context for suffix':
      return quoted.length > 0 ? quoted.map((q) => `- User request: ${q}`) : ['- (none)'];
    default:
      return ['- (none)'];
  }
}

/**
 * What the demo model answers: a summary when asked for one; a report on tool results when the
 * conversation ends with them; the tool calls of the latest user message; else a quote.
 */
export function decideReply(request: ChatMessage[], idPrefix: string): DemoReply {
  const messages = withoutLaterInstructions(request);
  if (isSummaryRequest(messages)) return { kind: 'text', text: buildSummary(messages) };
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') {
    let start = messages.length - 1;
    while (start > 0 && messages[start - 1]?.role === 'tool') start--;
    const results = messages.slice(start).map((m) => {
      const name = toolNameFor(messages, m.tool_call_id) ?? m.name ?? 'tool';
      return `- ${name}: "${firstLine(messageText(m))}"`;
    });
    return { kind: 'text', text: `Tool results:\n${results.join('\n')}` };
  }
  const userIndex = latestUserIndex(messages);
  const userText = userIndex >= 0 ? messageText(messages[userIndex]!) : '';
  if (last?.role === 'user') {
    const toolCalls = parseToolLines(userText, idPrefix);
    if (toolCalls.length > 0) {
      const noun = toolCalls.length === 1 ? 'tool' : 'tools';
      return { kind: 'tools', text: `Calling ${toolCalls.length} ${noun}.`, toolCalls };
    }
  }
  return { kind: 'text', text: `You said: "${firstLine(userText)}"` };
}

function toolNameFor(messages: ChatMessage[], toolCallId: string | undefined): string | undefined {
  if (!toolCallId) return undefined;
  for (const message of messages)
    for (const call of message.tool_calls ?? [])
      if (call.id === toolCallId) return call.function.name;
  return undefined;
}

/** About one token per four characters of everything the model reads. */
export function countTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function messageChars(message: ChatMessage): string {
  const calls = (message.tool_calls ?? [])
    .map((call) => call.function.name + call.function.arguments)
    .join('');
  return messageText(message) + calls;
}

export interface DemoUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

/**
 * Usage for a request and its answer. The cached part is everything before the last message: a
 * stable, deterministic stand-in for a provider's prefix cache.
 */
export function computeUsage(messages: ChatMessage[], tools: unknown, reply: DemoReply): DemoUsage {
  const toolText = tools ? JSON.stringify(tools) : '';
  const prefix = messages.slice(0, -1).map(messageChars).join('') + toolText;
  const lastText = messages.length > 0 ? messageChars(messages[messages.length - 1]!) : '';
  const prompt = countTokens(prefix + lastText);
  const cached = Math.min(prompt, Math.floor(prefix.length / 4));
  const replyChars =
    reply.text +
    (reply.kind === 'tools' ? reply.toolCalls.map((c) => c.name + c.arguments).join('') : '');
  const completion = countTokens(replyChars);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached },
  };
}

/** Splits a text into small chunks (a word and its following space each). */
export function chunkText(text: string): string[] {
  const chunks = text.match(/\S+\s*|\s+/g) ?? [];
  return chunks.length > 0 ? chunks : [text];
}
