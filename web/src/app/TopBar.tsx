import type { Me } from '../../../shared/rest-shapes';
import { logout } from '../api/rest';
import type { SocketStatus } from '../socket/arbor-socket';
import { THEME_CHOICES, useThemeChoice, type ThemeChoice } from '../theme/theme';
import { Search, Settings } from 'lucide-react';
import { PALETTE_SHORTCUT } from './CommandPalette';
import { ConnectionBanner } from './ConnectionBanner';

export type Panel = 'sessions' | 'chat' | 'tree';

/** The top bar: brand, the panel tabs of narrow screens, the connection state and the user. */
export function TopBar({
  panel,
  onPanel,
  status,
  me,
  onLoggedOut,
  onPalette,
  onSettings,
}: {
  panel: Panel;
  onPanel(panel: Panel): void;
  status: SocketStatus;
  me: Me;
  onLoggedOut(): void;
  /** Opens the command palette. */
  onPalette(): void;
  /** Opens an admin's settings (absent for everyone else). */
  onSettings?: (() => void) | undefined;
}) {
  return (
    <header className="topbar">
      <span className="brand">Arbor</span>
      <nav className="panel-tabs" aria-label="Panels">
        {(['sessions', 'chat', 'tree'] as const).map((name) => (
          <button
            key={name}
            type="button"
            aria-pressed={panel === name}
            onClick={() => onPanel(name)}
          >
            {name === 'sessions' ? 'Sessions' : name === 'chat' ? 'Chat' : 'Tree'}
          </button>
        ))}
      </nav>
      <ConnectionBanner status={status} />
      <button
        type="button"
        className="palette-button"
        aria-label="Commands"
        onClick={onPalette}
        aria-keyshortcuts="Control+K Meta+K"
        title={`Search sessions, models, messages and actions (${PALETTE_SHORTCUT})`}
      >
        <Search aria-hidden size={15} />
        <span>Commands</span>
        <kbd>{PALETTE_SHORTCUT}</kbd>
      </button>
      {onSettings ? (
        <button
          type="button"
          className="settings-button"
          aria-label="Settings"
          title="Provider keys and the models in use"
          onClick={onSettings}
        >
          <Settings aria-hidden size={15} />
          <span>Settings</span>
        </button>
      ) : null}
      <ThemePicker />
      <span className="user">
        {me.user.name} ({me.user.role})
        {me.authRequired ? (
          <button type="button" onClick={() => void logout().then(onLoggedOut)}>
            Log out
          </button>
        ) : null}
      </span>
    </header>
  );
}

const THEME_NAMES = { system: 'System', light: 'Light', dark: 'Dark' } as const;

/** Light, dark or the system's theme, remembered in this browser. */
function ThemePicker() {
  const [choice, setChoice] = useThemeChoice();
  return (
    <select
      className="theme-picker"
      aria-label="Theme"
      value={choice}
      onChange={(event) => setChoice(event.target.value as ThemeChoice)}
    >
      {THEME_CHOICES.map((name) => (
        <option key={name} value={name}>
          {THEME_NAMES[name]}
        </option>
      ))}
    </select>
  );
}
