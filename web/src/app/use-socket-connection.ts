import { useEffect, useRef, useState } from 'react';
import type { Me } from '../../../shared/rest-shapes';
import { warmLayoutWorker } from '../graph/run-layout';
import { ArborSocket, defaultSocketUrl, type SocketStatus } from '../socket/arbor-socket';

/**
 * The page's one socket, open while the workbench is: its status for the top bar and the editor,
 * a logout when the server no longer knows the user, and the user's new role when the server
 * closed the socket because it changed (the reconnect's welcome says it).
 */
export function useSocketConnection({
  me,
  onLoggedOut,
  onMe,
  report,
}: {
  me: Me;
  onLoggedOut(): void;
  onMe(me: Me): void;
  /** Tells the user of a problem the socket met (a frame that did not read). */
  report(text: string): void;
}): { socket: ArborSocket; status: SocketStatus } {
  const [socket] = useState(() => new ArborSocket({ url: defaultSocketUrl(window.location) }));
  const [status, setStatus] = useState<SocketStatus>('connecting');
  const meRef = useRef(me);
  meRef.current = me;

  useEffect(() => {
    // Big sessions lay their graph out in a worker: start it while the session loads.
    warmLayoutWorker();
    const offStatus = socket.onStatus((next) => {
      setStatus(next);
      if (next === 'unauthorized') onLoggedOut();
      // The server closes a socket whose user's role changed; the page reconnects and is told the
      // new role in the welcome, which every check on the page then uses.
      const user = next === 'open' ? socket.welcome?.user : undefined;
      if (user && (user.role !== meRef.current.user.role || user.name !== meRef.current.user.name))
        onMe({ ...meRef.current, user });
    });
    const offProblem = socket.onProblem(report);
    socket.start();
    return () => {
      offStatus();
      offProblem();
      socket.stop();
    };
  }, [socket, onLoggedOut, onMe, report]);

  return { socket, status };
}
