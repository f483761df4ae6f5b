import {
  ClientMessageSchema,
  COMMAND_TYPES,
  RequestIdSchema,
  type ClientMessage,
  type ErrorBody,
} from '../../shared/protocol.js';

/*
 * Turns one text frame into a ClientMessage or an error the client can act on. Errors carry the
 * request id when the frame had a usable one, so a client's pending request is answered rather
 * than left to time out.
 */

export type ParsedFrame =
  { ok: true; message: ClientMessage } | { ok: false; id?: string; error: ErrorBody };

const KNOWN_TYPES = new Set<string>(['hello', ...COMMAND_TYPES]);

export function parseClientFrame(text: string): ParsedFrame {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: { code: 'bad_frame', message: 'The frame is not valid JSON.' } };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, error: { code: 'bad_frame', message: 'The frame must be a JSON object.' } };
  }
  const record = json as Record<string, unknown>;
  const idResult = RequestIdSchema.safeParse(record.id);
  const id = idResult.success ? idResult.data : undefined;
  const withId = id === undefined ? {} : { id };
  if (typeof record.type !== 'string') {
    return {
      ok: false,
      ...withId,
      error: { code: 'bad_frame', message: 'The frame needs a string "type".' },
    };
  }
  if (!KNOWN_TYPES.has(record.type)) {
    return {
      ok: false,
      ...withId,
      error: {
        code: 'unknown_command',
        message: `Unknown command "${record.type.slice(0, 64)}".`,
      },
    };
  }
  const parsed = ClientMessageSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return {
      ok: false,
      ...withId,
      error: {
        code: 'invalid_argument',
        message: `Invalid "${record.type}": ${where}${issue?.message ?? 'bad value'}`,
      },
    };
  }
  return { ok: true, message: parsed.data };
}
