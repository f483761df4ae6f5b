import type { SocketStatus } from '../socket/arbor-socket';

/*
 * The connection, said plainly: nothing while connected; a calm line while the first connection is
 * made or a lost one is made again (the server restarting, a network drop), since the page comes
 * back to its session by itself; a warning only when the user must act (reload an outdated page).
 */

const TEXT: Record<SocketStatus, string> = {
  open: '',
  connecting: 'Connecting to the server…',
  reconnecting: 'Reconnecting to the server…',
  offline: '',
  unauthorized: '',
  incompatible: 'This page is out of date: reload it.',
};

export function ConnectionBanner({ status }: { status: SocketStatus }) {
  return (
    <span className={`connection status-${status}`} role="status">
      {TEXT[status]}
    </span>
  );
}

/** Why the editor cannot send while the socket is in `status`, or null when it can (or will). */
export function sendBlockedBy(status: SocketStatus): string | null {
  switch (status) {
    case 'reconnecting':
    case 'offline':
      return 'Not connected: Send works again once the server is back. Your text stays here.';
    case 'incompatible':
      return 'This page is out of date: reload it to send.';
    default:
      // While connecting for the first time, a send waits for the session (use-editor-commands).
      return null;
  }
}
