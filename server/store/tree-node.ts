import type { SessionEntry, TreeNode } from '../../shared/session-entries.js';
import type { UserContent } from '../../shared/messages.js';
import type { Envelope } from './session-lines.js';

/*
 * The skeleton of an entry: what a tree view needs and nothing more. Built once per entry on open
 * or append; the body can then be dropped.
 */

export const PREVIEW_LENGTH = 100;

/** Whitespace collapsed, cut to 100 characters (with an ellipsis when cut). */
export function makePreview(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  if (collapsed.length <= PREVIEW_LENGTH) return collapsed;
  return `${collapsed.slice(0, PREVIEW_LENGTH - 1)}…`;
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
          if (!text && toolNames.length > 0) text = toolNames.map((n) => `→ ${n}`).join(' ');
          if (!text && message.errorMessage) text = message.errorMessage;
          node.preview = makePreview(text);
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
  }
  return node;
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
