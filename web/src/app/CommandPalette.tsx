import { Search } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import {
  Autocomplete,
  Dialog,
  Header,
  Input,
  Menu,
  MenuItem,
  MenuSection,
  Modal,
  ModalOverlay,
  Text,
  TextField,
} from 'react-aria-components';
import { openView } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';
import { useThemeChoice } from '../theme/theme';
import { paletteSections, type PaletteAction } from './palette-commands';
import './command-palette.css';

/** The shortcut as this platform writes it. */
export const PALETTE_SHORTCUT =
  typeof navigator !== 'undefined' && /mac/i.test(navigator.platform) ? '⌘K' : 'Ctrl+K';

/** Ctrl+K, or ⌘K on a Mac: opens and closes the palette from anywhere on the page. */
export function usePaletteShortcut(toggle: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== 'k' || event.altKey || event.shiftKey) return;
      if (!(event.ctrlKey || event.metaKey)) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);
}

export interface PaletteHandlers {
  canCreate: boolean;
  canWrite: boolean;
  canManage: boolean;
  onNewSession(): void;
  onSettings(): void;
  onOpenSession(sessionId: string): void;
  onModel(model: { provider: string; modelId: string }): void;
  onJump(sessionId: string, entryId: string): void;
}

/**
 * The command palette: type to find an action, a session, a model or a message of the open
 * session, and Enter to run it (React Aria's Autocomplete over a Menu, in a modal dialog).
 */
export function CommandPalette({
  isOpen,
  onOpenChange,
  handlers,
}: {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  handlers: PaletteHandlers;
}) {
  const [query, setQuery] = useState('');
  const [theme, setTheme] = useThemeChoice();
  const sessionsByWorkspace = usePage((state) => state.sessions);
  const openSessionId = usePage((state) => state.openSessionId);
  const view = usePage(openView);
  const sections = useMemo(
    () =>
      isOpen
        ? paletteSections({
            query,
            canCreate: handlers.canCreate,
            canWrite: handlers.canWrite,
            canManage: handlers.canManage,
            theme,
            sessions: Object.values(sessionsByWorkspace).flat(),
            openSessionId,
            models: view?.models ?? [],
            currentModel: view
              ? { provider: view.state.provider, modelId: view.state.modelId }
              : null,
            nodes: view?.tree ?? [],
          })
        : [],
    [
      isOpen,
      query,
      handlers.canCreate,
      handlers.canWrite,
      handlers.canManage,
      theme,
      sessionsByWorkspace,
      openSessionId,
      view,
    ],
  );
  const actions = useMemo(
    () =>
      new Map(sections.flatMap((section) => section.items.map((item) => [item.id, item.action]))),
    [sections],
  );

  const run = (action: PaletteAction) => {
    switch (action.kind) {
      case 'new_session':
        return handlers.onNewSession();
      case 'settings':
        return handlers.onSettings();
      case 'theme':
        return setTheme(action.choice);
      case 'open_session':
        return handlers.onOpenSession(action.sessionId);
      case 'model':
        return handlers.onModel({ provider: action.provider, modelId: action.modelId });
      case 'jump':
        if (openSessionId) handlers.onJump(openSessionId, action.entryId);
        return undefined;
    }
  };

  return (
    <ModalOverlay
      className="palette-overlay"
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) setQuery('');
        onOpenChange(open);
      }}
      isDismissable
    >
      <Modal className="palette">
        <Dialog className="palette-dialog" aria-label="Command palette">
          {({ close }) => (
            <Autocomplete inputValue={query} onInputChange={setQuery}>
              {/* A TextField, not a SearchField: one Escape closes the palette, as people expect. */}
              <TextField className="palette-search" aria-label="Search commands" autoFocus>
                <Search aria-hidden size={16} />
                <Input placeholder="Type a command, a session, a model or a message…" />
              </TextField>
              <Menu
                className="palette-menu"
                aria-label="Commands"
                onAction={(key) => {
                  const action = actions.get(String(key));
                  if (!action) return;
                  setQuery('');
                  close();
                  run(action);
                }}
                renderEmptyState={() => <p className="palette-empty">Nothing matches.</p>}
              >
                {sections.map((section) => (
                  <MenuSection key={section.id} id={section.id} className="palette-section">
                    <Header>{section.title}</Header>
                    {section.items.map((item) => (
                      <MenuItem
                        key={item.id}
                        id={item.id}
                        textValue={item.label}
                        className="palette-item"
                      >
                        <Text slot="label">{item.label}</Text>
                        {item.detail ? (
                          <Text slot="description" className="palette-detail">
                            {item.detail}
                          </Text>
                        ) : null}
                      </MenuItem>
                    ))}
                  </MenuSection>
                ))}
              </Menu>
            </Autocomplete>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
