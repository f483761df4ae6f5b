import { useEffect, useState } from 'react';
import type { Me } from '../../../shared/protocol';
import { getMe, HttpFailure } from '../api/rest';
import { LoginPage } from './LoginPage';
import { Workbench } from './Workbench';

/** Finds out who the user is: the login page in team mode, else the workbench. */
export function App() {
  const [me, setMe] = useState<Me | 'login' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    getMe()
      .then(setMe)
      .catch((error: unknown) => {
        if (error instanceof HttpFailure && error.status === 401) setMe('login');
        else setProblem('Arbor’s server cannot be reached. Is `arbor serve` running?');
      });
  }, []);

  if (me === 'login') return <LoginPage onLogin={setMe} />;
  if (me === null) return <main className="splash">{problem ?? 'Loading Arbor…'}</main>;
  return <Workbench me={me} onLoggedOut={() => setMe('login')} />;
}
