import type { CommandType, UserSummary } from '../../shared/protocol.js';
import { assertNever } from '../../shared/agent-events.js';

/*
 * The authorisation model (docs/decisions/030-authorisation.md), as pure functions so that HTTP
 * routes and WebSocket commands ask the same question. Every session in a configured workspace is
 * readable by every user; writing needs ownership (members) or the admin role; viewers never write.
 */

export type Access = 'read' | 'create' | 'write';

/** What a user may do to one session, given its owner (`null`: no recorded owner). */
export function mayAccess(user: UserSummary, owner: string | null, access: Access): boolean {
  switch (access) {
    case 'read':
      return true;
    case 'create':
      return user.role === 'admin' || user.role === 'member';
    case 'write':
      return user.role === 'admin' || (user.role === 'member' && owner === user.name);
    default:
      return assertNever(access);
  }
}

/**
 * The access each WebSocket command needs on the session it names. Anyone who may read a session
 * may fork or clone it into a session of their own; a viewer's copy stays read-only to it, since
 * viewers never write.
 */
export function accessFor(command: CommandType): Access {
  switch (command) {
    case 'subscribe':
    case 'unsubscribe':
    case 'get_state':
    case 'get_tree':
    case 'get_entries':
    case 'switch_session':
    case 'ping':
    case 'fork':
    case 'clone':
      return 'read';
    case 'new_session':
      return 'create';
    case 'prompt':
    case 'steer':
    case 'follow_up':
    case 'abort':
    case 'clear_queue':
    case 'dequeue':
    case 'navigate_tree':
    case 'compact':
    case 'set_model':
    case 'set_thinking_level':
    case 'set_label':
    case 'set_session_name':
      return 'write';
    default:
      return assertNever(command);
  }
}
