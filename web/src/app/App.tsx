import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { Me } from '../../../shared/rest-shapes';
import { getMe, HttpFailure } from '../api/rest';
import { followShareAfterLogin } from './use-shared-link';
import { Workbench } from './Workbench';

// Only team mode shows it, before anything else: its code loads when it is needed.
const LoginPage = lazy(() =>
  import('./LoginPage').then((module) => ({ default: module.LoginPage })),
);

/** Finds out who the user is: the login page in team mode, else the workbench. */
export function App() {
  const [me, setMe] = useState<Me | 'login' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const onLoggedOut = useCallback(() => setMe('login'), []);

  useEffect(() => {
    getMe()
      .then((known) => followShareAfterLogin() || setMe(known))
      .catch((error: unknown) => {
        if (error instanceof HttpFailure && error.status === 401) setMe('login');
        else setProblem('Arbor’s server cannot be reached. Is `arbor serve` running?');
      });
  }, []);

  if (me === 'login')
    return (
      <Suspense fallback={<main className="splash">Loading Arbor…</main>}>
        <LoginPage onLogin={(known) => followShareAfterLogin() || setMe(known)} />
      </Suspense>
    );
  if (me === null) return <main className="splash">{problem ?? 'Loading Arbor…'}</main>;
  return <Workbench me={me} onLoggedOut={onLoggedOut} onMe={setMe} />;
}
