import { useState } from 'react';
import type { Me } from '../../../shared/rest-shapes';
import { HttpFailure, login } from '../api/rest';

/** Team mode: exchanges a login token (from `arbor user add`) for a session cookie. */
export function LoginPage({ onLogin }: { onLogin(me: Me): void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <main className="login-page">
      <form
        className="login-card"
        onSubmit={(event) => {
          event.preventDefault();
          setBusy(true);
          setError(null);
          login(token.trim())
            .then(onLogin)
            .catch((failure: unknown) =>
              setError(
                failure instanceof HttpFailure ? failure.message : 'Could not reach the server.',
              ),
            )
            .finally(() => setBusy(false));
        }}
      >
        <h1>Arbor</h1>
        <p>This server is shared by a team. Log in with the token an admin gave you.</p>
        <input
          type="password"
          aria-label="Token"
          autoComplete="current-password"
          autoFocus
          value={token}
          onChange={(event) => setToken(event.target.value)}
        />
        <button type="submit" disabled={busy || token.trim() === ''}>
          Log in
        </button>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </main>
  );
}
