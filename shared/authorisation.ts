import type { CommandType, UserSummary } from './protocol.js';
import { assertNever } from './agent-events.js';

/*
 * The authorisation model (docs/decisions/030-authorisation.md, 055), as pure functions so that
 * HTTP routes, WebSocket commands and the page ask the same question. Every session in a
 * configured workspace is readable by every user; making a session (new, import, fork, clone)
 * needs the member or admin role; writing needs ownership (members) or the admin role; viewers
 * read and nothing else.
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

/** What a user may do to a session from the session list; the list rows carry it (`may`). */
export interface SessionPermissions {
  rename: boolean;
  delete: boolean;
}

/**
 * The one rule for the session list's Rename and Delete (and Undo of a delete): the server's
 * routes refuse what this refuses, and the listing tells the page this answer for every row, so the
 * page offers exactly what the server allows. Members change only their own sessions; sessions
 * without an owner (made by pi, or before users existed) are the admins'.
 */
export function sessionPermissions(user: UserSummary, owner: string | null): SessionPermissions {
  const write = mayAccess(user, owner, 'write');
  return { rename: write, delete: write };
}

/**
 * Who may make and revoke a session's share links: those who may write it (admins all). A link
 * grants its reader nothing beyond reading, which every user may already do.
 */
export function mayManageShares(user: UserSummary, owner: string | null): boolean {
  return mayAccess(user, owner, 'write');
}

/**
 * Who may save or remove a provider's API key (pi's auth.json): admins only. A key costs the
 * instance money and reaches every session on that provider's models.
 */
export function mayManageKeys(user: UserSummary): boolean {
  return user.role === 'admin';
}

/**
 * Who may choose the models a team uses (pi's `enabledModels`): admins only, as keys.
 */
export function mayChooseModels(user: UserSummary): boolean {
  return user.role === 'admin';
}

/**
 * Whether `user` can only read: may start no session and write to none, not even one of their own
 * (the viewer role). The page then shows a read-only page rather than controls that cannot work.
 */
export function readsOnly(user: UserSummary): boolean {
  return !mayAccess(user, null, 'create') && !mayAccess(user, user.name, 'write');
}

/**
 * The access each WebSocket command needs on the session it names. Fork and clone make a new
 * session, so they need what starting one needs: a viewer, who reads, makes no sessions (a viewer
 * could otherwise fill the disk with copies it can neither use nor delete; decision 055).
 */
export function accessFor(command: CommandType): Access {
  switch (command) {
    case 'subscribe':
    case 'unsubscribe':
    case 'get_state':
    case 'get_resources':
    case 'get_tree':
    case 'get_entries':
    case 'get_path':
    case 'get_session_stats':
    case 'switch_session':
    case 'ping':
      return 'read';
    case 'new_session':
    case 'fork':
    case 'clone':
      return 'create';
    case 'prompt':
    case 'steer':
    case 'follow_up':
    case 'bash':
    case 'abort':
    case 'clear_queue':
    case 'dequeue':
    case 'navigate_tree':
    case 'compact':
    case 'set_model':
    case 'set_thinking_level':
    case 'set_label':
    case 'set_session_name':
    case 'edit_context':
      return 'write';
    default:
      return assertNever(command);
  }
}
