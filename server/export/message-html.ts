import { messageOfEntry } from '../../shared/entry-messages.js';
import type {
  AgentMessage,
  ImageContent,
  SystemMessage,
  TextContent,
  UserContent,
} from '../../shared/messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import { escapeHtml, imageHtml, type MarkdownRenderer } from './html-text.js';

/*
 * One entry of a session as an exported page shows it: the chat's reading of each message role
 * (shared/entry-messages.ts decides which entries are messages), thinking folded, tool calls with
 * their arguments, tool results and bash output as text, images inline.
 */

function pre(text: string): string {
  return `<pre>${escapeHtml(text)}</pre>`;
}

/** Content as text (`markdown` null: shown as it is) and images. */
function contentHtml(
  content: UserContent | (TextContent | ImageContent)[],
  markdown: MarkdownRenderer | null,
) {
  const text = markdown ?? pre;
  if (typeof content === 'string') return text(content);
  return content
    .map((block) =>
      block.type === 'text' ? text(block.text) : imageHtml(block.mimeType, block.data),
    )
    .join('');
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? '';
  } catch {
    return String(value);
  }
}

/** A system message: its prompt, each named section, each tool with its parameters. */
export function systemMessageHtml(message: SystemMessage): string {
  const text =
    typeof message.content === 'string'
      ? message.content
      : message.content.map((b) => b.text).join('\n');
  const sections = Object.entries(message.sections ?? {})
    .map(([name, value]) =>
      value === null
        ? `<li>Section <code>${escapeHtml(name)}</code> removed</li>`
        : `<li><details><summary>Section <code>${escapeHtml(name)}</code></summary>${pre(value)}</details></li>`,
    )
    .join('');
  const tools = (message.toolsAdded ?? [])
    .map(
      (tool) =>
        `<li><details><summary>Tool <code>${escapeHtml(tool.name)}</code>${
          tool.description ? `: ${escapeHtml(tool.description.split('\n')[0] ?? '')}` : ''
        }</summary>${tool.description ? pre(tool.description) : ''}${
          tool.parameters !== undefined ? pre(json(tool.parameters)) : ''
        }</details></li>`,
    )
    .join('');
  const removed = (message.toolsRemoved ?? [])
    .map((tool) => `<li>Tool <code>${escapeHtml(tool.name)}</code> removed</li>`)
    .join('');
  return (
    (text ? pre(text) : '') +
    (sections ? `<ul class="sections">${sections}</ul>` : '') +
    (tools || removed ? `<ul class="tools">${tools}${removed}</ul>` : '')
  );
}

function roleName(message: AgentMessage): string {
  switch (message.role) {
    case 'user':
      return 'User';
    case 'assistant':
      return `Assistant (${message.model})`;
    case 'toolResult':
      return `Tool result: ${message.toolName}${message.isError ? ' (error)' : ''}`;
    case 'bashExecution':
      return 'Shell command';
    case 'system':
      return 'System prompt';
    case 'custom':
    case 'hookMessage':
      return `Message: ${message.customType}`;
    case 'branchSummary':
      return 'Summary of a branch left';
    case 'compactionSummary':
      return 'Compaction summary';
  }
}

function messageBody(message: AgentMessage, markdown: MarkdownRenderer): string {
  switch (message.role) {
    case 'user':
      return contentHtml(message.content, null);
    case 'assistant': {
      const parts = message.content.map((block) => {
        if (block.type === 'text') return markdown(block.text);
        if (block.type === 'thinking') {
          return `<details class="thinking"><summary>Thinking</summary>${
            block.redacted ? '<p class="note">(redacted)</p>' : pre(block.thinking)
          }</details>`;
        }
        return `<div class="tool-call"><p>Tool call <code>${escapeHtml(block.name)}</code></p>${pre(
          json(block.arguments),
        )}</div>`;
      });
      if (message.errorMessage)
        parts.push(`<p class="error">${escapeHtml(message.errorMessage)}</p>`);
      else if (message.stopReason === 'aborted') parts.push('<p class="error">Aborted</p>');
      return parts.join('');
    }
    case 'toolResult':
      return contentHtml(message.content, null);
    case 'bashExecution':
      return `${pre(`$ ${message.command}`)}${pre(message.output)}${
        message.exitCode ? `<p class="note">exit code ${message.exitCode}</p>` : ''
      }${message.cancelled ? '<p class="note">cancelled</p>' : ''}`;
    case 'system':
      return systemMessageHtml(message);
    case 'custom':
    case 'hookMessage':
      return contentHtml(message.content, markdown);
    case 'branchSummary':
    case 'compactionSummary':
      return markdown(message.summary);
  }
}

/** A bookkeeping entry as one line of the chat, or '' for those the tree alone shows. */
function noteOf(entry: SessionEntry): string {
  switch (entry.type) {
    case 'model_change':
      return `Model: ${entry.provider}/${entry.modelId}`;
    case 'thinking_level_change':
      return `Thinking level: ${entry.thinkingLevel}`;
    case 'session_info':
      return entry.name ? `Session named “${entry.name}”` : '';
    case 'context_edit':
      return entry.replacement === null
        ? `Hidden from the model: ${entry.targetId}`
        : `What the model sees of ${entry.targetId} replaced`;
    default:
      return '';
  }
}

/** Whether the entry shows anything in the chat (the tree links only to those that do). */
export function entryShows(entry: SessionEntry): boolean {
  return messageOfEntry(entry) !== undefined || noteOf(entry) !== '';
}

/** The entry as an article anchored at `e-<id>` (the tree links there), or '' when it shows nothing. */
export function entryHtml(entry: SessionEntry, markdown: MarkdownRenderer): string {
  const anchor = `e-${escapeHtml(entry.id)}`;
  const message = messageOfEntry(entry);
  if (!message) {
    const note = noteOf(entry);
    return note ? `<p class="entry-note" id="${anchor}">${escapeHtml(note)}</p>` : '';
  }
  return `<article class="msg ${escapeHtml(message.role)}" id="${anchor}" aria-label="${escapeHtml(
    roleName(message),
  )}"><h3>${escapeHtml(roleName(message))}</h3>${messageBody(message, markdown)}</article>`;
}
