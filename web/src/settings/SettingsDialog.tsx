import { useCallback, useEffect, useId, useState } from 'react';
import { getEnabledModels, listProviders, setEnabledModels, setProviderKey } from '../api/rest';
import { Modal } from '../ui/Modal';
import { keyStatus, patternsOf, shownProviders, type ProviderRow } from './provider-keys';
import './settings.css';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * An admin's settings: the providers' API keys (saved in pi's auth.json, never shown back) and the
 * models the team may use (pi's `enabledModels`), through the server's admin API.
 */
export function SettingsDialog({ onClose }: { onClose(): void }) {
  return (
    <Modal title="Settings" onClose={onClose}>
      <div className="settings">
        <ProviderKeys />
        <ModelsInUse />
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}

function ProviderKeys() {
  const [rows, setRows] = useState<ProviderRow[] | null>(null);
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<string | null>(null);
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = useId();

  const load = useCallback(() => {
    listProviders().then(
      (answer) => setRows(answer.providers),
      (error: unknown) => setProblem(messageOf(error)),
    );
  }, []);
  useEffect(load, [load]);

  const save = (provider: string, value: string | null) => {
    setProblem(null);
    setProviderKey(provider, value).then(
      () => {
        setEditing(null);
        setKey('');
        load();
      },
      (error: unknown) => setProblem(messageOf(error)),
    );
  };

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Provider keys</h3>
      <p className="dialog-note">
        Saved in pi&apos;s auth.json for the whole team; a key is never shown again.
      </p>
      <input
        type="search"
        aria-label="Find a provider"
        placeholder="Find a provider"
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
      />
      {problem ? (
        <p className="settings-problem" role="alert">
          {problem}
        </p>
      ) : null}
      {rows === null ? (
        <p className="dialog-note">Loading…</p>
      ) : (
        <div className="settings-table-wrap">
          <table className="settings-table">
            <tbody>
              {shownProviders(rows, filter).map((row) => (
                <tr key={row.provider} data-provider={row.provider}>
                  <th scope="row">{row.provider}</th>
                  <td className="settings-count">{row.models} models</td>
                  <td>{keyStatus(row)}</td>
                  <td className="settings-actions">
                    {editing === row.provider ? (
                      <form
                        onSubmit={(event) => {
                          event.preventDefault();
                          if (key.trim()) save(row.provider, key.trim());
                        }}
                      >
                        <input
                          type="password"
                          autoComplete="off"
                          aria-label={`API key for ${row.provider}`}
                          value={key}
                          autoFocus
                          onChange={(event) => setKey(event.target.value)}
                        />
                        <button type="submit" disabled={!key.trim()}>
                          Save
                        </button>
                        <button type="button" onClick={() => setEditing(null)}>
                          Cancel
                        </button>
                      </form>
                    ) : (
                      <>
                        <button
                          type="button"
                          aria-label={`Set key for ${row.provider}`}
                          onClick={() => {
                            setKey('');
                            setEditing(row.provider);
                          }}
                        >
                          Set key
                        </button>
                        {row.key === 'saved' ? (
                          <button
                            type="button"
                            aria-label={`Remove key for ${row.provider}`}
                            onClick={() => save(row.provider, null)}
                          >
                            Remove
                          </button>
                        ) : null}
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function ModelsInUse() {
  const [every, setEvery] = useState(true);
  const [text, setText] = useState('');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const headingId = useId();

  useEffect(() => {
    getEnabledModels().then(
      ({ patterns }) => {
        setEvery(patterns === null);
        setText((patterns ?? []).join('\n'));
      },
      (error: unknown) => setStatus({ ok: false, text: messageOf(error) }),
    );
  }, []);

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Models in use</h3>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setStatus(null);
          setEnabledModels(patternsOf(every, text)).then(
            (answer) => setStatus({ ok: true, text: `Saved: ${answer.models} models in use.` }),
            (error: unknown) => setStatus({ ok: false, text: messageOf(error) }),
          );
        }}
      >
        <label className="settings-choice">
          <input
            type="radio"
            name="models-in-use"
            checked={every}
            onChange={() => setEvery(true)}
          />
          Every model
        </label>
        <label className="settings-choice">
          <input
            type="radio"
            name="models-in-use"
            checked={!every}
            onChange={() => setEvery(false)}
          />
          Only these (pi&apos;s patterns, one per line: <code>anthropic/*</code>,{' '}
          <code>gpt-5*</code>)
        </label>
        <textarea
          aria-label="Model patterns, one per line"
          rows={4}
          disabled={every}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <div className="dialog-actions">
          <button type="submit">Save models in use</button>
        </div>
        <p
          className={status && !status.ok ? 'settings-problem' : 'dialog-note'}
          role={status && !status.ok ? 'alert' : 'status'}
        >
          {status?.text ?? ''}
        </p>
      </form>
    </section>
  );
}
