/*
 * The authorisation rules live in shared/authorisation.ts, so that the page greys out exactly what
 * the server refuses; the server's routes and commands take them from here.
 */
export {
  accessFor,
  mayAccess,
  readsOnly,
  sessionPermissions,
  type SessionPermissions,
} from '../../shared/authorisation.js';
