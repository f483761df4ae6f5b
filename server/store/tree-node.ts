import { PREVIEW_LENGTH, type SessionEntry, type TreeNode } from '../../shared/session-entries.js';
import { StopReasonSchema, type SystemMessage, type UserContent } from '../../shared/messages.js';
import type { Envelope } from './session-lines.js';

/*
 * The skeleton of an entry: what a tree view needs and nothing more. Built once per entry on open
 * or append; the body can then be dropped.
 */

export { PREVIEW_LENGTH };

/** The stop reasons Arbor itself writes; others are parsed in full by the fast scan. */
export const ARBOR_STOP_REASONS: ReadonlySet<string> = new Set(StopReasonSchema.options);

/** The characters JavaScript's `\s` and `String.prototype.trim` treat as white space. */
export function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Char codes of `text` with runs of white space made one space and the ends trimmed
 * (`text.replace(/\s+/g, ' ').trim()`), at most `limit` of them, without touching the rest of a
 * long text. Strings are built from codes so a preview is one flat string that holds nothing of
 * `text` (a slice or a chain of `+=` would keep memory alive for every node of a big tree).
 */
function collapsedCodes(text: string, limit: number): number[] {
  const codes: number[] = [];
  let pendingSpace = false;
  for (let i = 0; i < text.length && codes.length < limit; i++) {
    const code = text.charCodeAt(i);
    if (isWhiteSpace(code)) {
      pendingSpace = codes.length > 0;
      continue;
    }
    if (pendingSpace) {
      codes.push(0x20);
      pendingSpace = false;
      if (codes.length >= limit) break;
    }
    codes.push(code);
  }
  return codes;
}

/** Whitespace collapsed, cut to 100 characters (with an ellipsis when cut). */
export function makePreview(text: string): string {
  const codes = collapsedCodes(text, PREVIEW_LENGTH + 1);
  if (codes.length > PREVIEW_LENGTH) {
    codes.length = PREVIEW_LENGTH - 1;
    codes.push(0x2026);
  }
  return String.fromCharCode(...codes);
}

function userContentText(content: UserContent): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  let images = 0;
  for (const block of content) {
    if (block.type === 'text') parts.push(block.text);
    else images++;
  }
  if (images > 0) parts.push(images === 1 ? '[image]' : `[${images} images]`);
  return parts.join(' ');
}

function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * What a system message (pi 1.6's prompt and tool loadout) says in a line, counts first so that
 * they survive the preview's cut: `System: 5 sections, 7 tools · preamble, tools, … · +read +bash
 * … · text`; a patch counts and names what it changes (`−` for what it removes).
 */
export function systemMessageSummary(message: SystemMessage): string {
  const sections = Object.entries(message.sections ?? {});
  const set = sections.filter(([, text]) => text !== null).map(([name]) => name);
  const dropped = sections.filter(([, text]) => text === null).map(([name]) => `−${name}`);
  const added = (message.toolsAdded ?? []).map((tool) => `+${tool.name}`);
  const removed = (message.toolsRemoved ?? []).map((tool) => `−${tool.name}`);
  const counts: string[] = [];
  if (set.length > 0) counts.push(counted(set.length, 'section'));
  if (dropped.length > 0) counts.push(`${counted(dropped.length, 'section')} removed`);
  if (added.length > 0) counts.push(counted(added.length, 'tool'));
  if (removed.length > 0) counts.push(`${counted(removed.length, 'tool')} removed`);
  const parts = counts.length > 0 ? [counts.join(', ')] : [];
  if (sections.length > 0) parts.push([...set, ...dropped].join(', '));
  if (added.length + removed.length > 0) parts.push([...added, ...removed].join(' '));
  const text =
    typeof message.content === 'string' ? message.content : userContentText(message.content);
  if (text.trim()) parts.push(text);
  return parts.length > 0 ? `System: ${parts.join(' · ')}` : 'System: (empty)';
}

export function nodeOfEntry(entry: SessionEntry): TreeNode {
  const node: TreeNode = {
    id: entry.id,
    parentId: entry.parentId,
    type: entry.type,
    preview: '',
    timestamp: entry.timestamp,
  };
  switch (entry.type) {
    case 'message': {
      const message = entry.message;
      node.role = message.role;
      switch (message.role) {
        case 'user':
        case 'custom':
        case 'hookMessage':
          node.preview = makePreview(userContentText(message.content));
          break;
        case 'assistant': {
          let text = '';
          const toolNames: string[] = [];
          for (const block of message.content) {
            if (block.type === 'text') text += (text ? ' ' : '') + block.text;
            else if (block.type === 'toolCall') toolNames.push(block.name);
          }
          let preview = makePreview(text);
          if (!preview && toolNames.length > 0) {
            preview = makePreview(toolNames.map((n) => `→ ${n}`).join(' '));
          }
          if (!preview && message.errorMessage) preview = makePreview(message.errorMessage);
          // pi 1.6's deferred replies (and stop reasons newer than Arbor) often carry no text yet.
          if (!preview && !ARBOR_STOP_REASONS.has(message.stopReason)) {
            preview =
              message.stopReason === 'deferred' ? '(deferred reply)' : `(${message.stopReason})`;
          }
          node.preview = preview;
          node.toolCalls = toolNames.length;
          if (message.stopReason === 'error' || message.stopReason === 'aborted') {
            node.isError = true;
          }
          break;
        }
        case 'toolResult':
          node.preview = makePreview(`${message.toolName}: ${userContentText(message.content)}`);
          if (message.isError) node.isError = true;
          break;
        case 'bashExecution':
          node.preview = makePreview(`$ ${message.command}`);
          break;
        case 'branchSummary':
        case 'compactionSummary':
          node.preview = makePreview(message.summary);
          break;
        case 'system':
          node.preview = makePreview(systemMessageSummary(message));
          break;
      }
      break;
    }
    case 'custom_message':
      node.role = 'custom';
      node.preview = makePreview(userContentText(entry.content));
      break;
    case 'compaction':
    case 'branch_summary':
      node.preview = makePreview(entry.summary);
      break;
    case 'model_change':
      node.preview = makePreview(`${entry.provider}/${entry.modelId}`);
      break;
    case 'thinking_level_change':
      node.preview = entry.thinkingLevel;
      break;
    case 'label':
      node.preview = makePreview(
        entry.label ? `${entry.targetId}: ${entry.label}` : `${entry.targetId}: (cleared)`,
      );
      break;
    case 'session_info':
      node.preview = makePreview(entry.name ?? '');
      break;
    case 'custom':
      node.preview = makePreview(entry.customType);
      break;
    case 'context_edit': {
      const replacement = entry.replacement;
      node.preview = makePreview(
        replacement === null
          ? `Hidden from the context: ${entry.targetId}`
          : `Replaced in the context: ${entry.targetId} → ${
              typeof replacement.content === 'string'
                ? replacement.content
                : userContentText(
                    replacement.content.filter(
                      (block) => block.type === 'text' || block.type === 'image',
                    ),
                  )
            }`,
      );
      break;
    }
    case 'usage':
      node.preview = makePreview(
        `${entry.kind}: ${entry.provider}/${entry.model}, ${usageTokens(entry.usage)} tokens${
          entry.note ? ` (${entry.note})` : ''
        }`,
      );
      break;
  }
  return node;
}

function usageTokens(usage: {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens?: number;
}): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** The skeleton of a line this version cannot interpret: its envelope only. */
export function nodeOfEnvelope(envelope: Envelope): TreeNode {
  return {
    id: envelope.id,
    parentId: envelope.parentId,
    type: envelope.type,
    preview: '',
    timestamp: envelope.timestamp,
  };
}
