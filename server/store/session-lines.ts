import {
  SessionHeaderSchema,
  type SessionEntry,
  type SessionHeader,
} from '../../shared/session-entries.js';
import { isSessionEntry } from './entry-check.js';

/*
 * One line of a session file, parsed. The objects handed out are the ones JSON.parse produced
 * (after the schema accepted them), so every key, known or not, and its order survive when an
 * entry is written again.
 */

/** The tree-relevant part of any line that has `type`, `id`, `parentId` and `timestamp`. */
export interface Envelope {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
}

export type ParsedLine =
  | { kind: 'header'; header: SessionHeader }
  /** A v3 entry the schema accepts. */
  | { kind: 'entry'; entry: SessionEntry }
  /**
   * A tree node this version cannot use: an unknown entry type, or a known type whose body the
   * schema rejects. Kept in the tree so its children are not orphaned, left out of the context.
   */
  | { kind: 'foreign'; envelope: Envelope; reason: string }
  /** Not JSON, or JSON without an entry envelope (v1 entries have no id; see migration). */
  | { kind: 'bad'; reason: string; value?: unknown };

/**
 * The deepest nesting of arrays and objects a line may have. JSON.parse reads any depth, but
 * JSON.stringify recurses: a 20,000-deep array was imported and then could never be sent to a
 * page. pi's own entries nest a few levels; tool arguments and details a few dozen at most.
 */
export const MAX_JSON_DEPTH = 512;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether the JSON text nests arrays and objects deeper than `limit`; linear, strings skipped. */
function nestsDeeperThan(text: string, limit: number): boolean {
  // Each level takes two characters: shorter text cannot be that deep.
  if (text.length <= 2 * limit) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

export function parseLine(text: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'bad', reason: error instanceof Error ? error.message : 'not JSON' };
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    return { kind: 'bad', reason: `arrays or objects nested deeper than ${MAX_JSON_DEPTH} levels` };
  return classifyValue(value);
}

export function classifyValue(value: unknown): ParsedLine {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'bad', reason: 'not a JSON object', value };
  }
  const record = value as Record<string, unknown>;
  if (record.type === 'session') {
    const header = SessionHeaderSchema.safeParse(value);
    if (header.success) return { kind: 'header', header: value as SessionHeader };
    return { kind: 'bad', reason: `invalid header: ${header.error.message}`, value };
  }
  const envelope = envelopeOf(record);
  if (!envelope) return { kind: 'bad', reason: 'missing type, id, parentId or timestamp', value };
  const read = withEmptyContent(record);
  if (isSessionEntry(read)) return { kind: 'entry', entry: read as SessionEntry };
  const known = SESSION_ENTRY_TYPES.has(envelope.type);
  return {
    kind: 'foreign',
    envelope,
    reason: known ? `invalid ${envelope.type} entry` : `unknown entry type "${envelope.type}"`,
  };
}

const EMPTIABLE_ROLES: ReadonlySet<unknown> = new Set([
  'user',
  'assistant',
  'toolResult',
  'system',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * pi reads a message's null or absent `content` as empty (`[]`; a system message's `""`) and a
 * custom_message's as `[]`, instead of failing; so does Arbor. A changed entry is a copy, so the
 * line as parsed is never altered; keys keep their order.
 */
function withEmptyContent(record: Record<string, unknown>): Record<string, unknown> {
  if (record.type === 'message' && isRecord(record.message)) {
    const message = record.message;
    if (message.content == null && EMPTIABLE_ROLES.has(message.role)) {
      return { ...record, message: { ...message, content: message.role === 'system' ? '' : [] } };
    }
  } else if (record.type === 'custom_message' && record.content == null) {
    return { ...record, content: [] };
  }
  return record;
}

export function envelopeOf(record: Record<string, unknown>): Envelope | undefined {
  const { type, id, parentId, timestamp } = record;
  if (typeof type !== 'string' || typeof id !== 'string' || id.length === 0) return undefined;
  if (parentId !== null && typeof parentId !== 'string') return undefined;
  if (typeof timestamp !== 'string') return undefined;
  return { type, id, parentId, timestamp };
}

export const SESSION_ENTRY_TYPES: ReadonlySet<string> = new Set([
  'message',
  'thinking_level_change',
  'model_change',
  'compaction',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
  'context_edit',
  'usage',
]);

/** One line as written: the JSON text and its newline. */
export function serializeLine(value: SessionEntry | SessionHeader | object): string {
  return `${JSON.stringify(value)}\n`;
}
