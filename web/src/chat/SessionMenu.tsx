import { Ellipsis } from 'lucide-react';
import type { Ref } from 'react';
import {
  Button,
  Menu,
  MenuItem,
  MenuTrigger,
  Popover,
  Separator,
  Text,
} from 'react-aria-components';
import { exportUrls } from './ShareDialog';
import './session-menu.css';

/** What the session menu can do for this user now (an action absent is not offered). */
export interface SessionMenuActions {
  sessionId: string;
  /** Compact… (off while running or before a first prompt), with why it is off. */
  compact?: { disabled: string | null; run(): void } | undefined;
  fork?: (() => void) | undefined;
  clone?: (() => void) | undefined;
  statistics(): void;
  share(): void;
  /** The menu's button, where focus goes back when a dialog opened from the menu closes. */
  buttonRef?: Ref<HTMLButtonElement> | undefined;
}

/**
 * The session's menu ("Session actions"): compact, fork, clone, statistics, downloads and share,
 * React Aria's menu (keys, focus and its popover are the library's). Each item keeps its action's
 * name ("Fork", "Statistics", "Share…"), with a line saying what it does.
 */
export function SessionMenu(props: SessionMenuActions) {
  const urls = exportUrls(props.sessionId);
  const { compact, fork, clone } = props;
  const disabled = compact?.disabled ? ['compact'] : [];
  return (
    <MenuTrigger>
      <Button
        ref={props.buttonRef ?? null}
        className="icon-button session-menu-button"
        aria-label="Session actions"
      >
        <Ellipsis size={16} aria-hidden />
      </Button>
      <Popover className="session-menu-popover" placement="bottom end">
        <Menu
          className="session-menu"
          disabledKeys={disabled}
          onAction={(key) => {
            if (key === 'compact') compact?.run();
            else if (key === 'fork') fork?.();
            else if (key === 'clone') clone?.();
            else if (key === 'statistics') props.statistics();
            else if (key === 'share') props.share();
          }}
        >
          {compact ? (
            <Item
              id="compact"
              name="Compact…"
              what={compact.disabled ?? 'Summarise older messages for the model'}
            />
          ) : null}
          {fork ? (
            <Item
              id="fork"
              name="Fork"
              what="A new session from the last prompt, to edit it there"
            />
          ) : null}
          {clone ? (
            <Item id="clone" name="Clone" what="A new session with this whole branch" />
          ) : null}
          <Item id="statistics" name="Statistics" what="Tokens, cost and messages" />
          <Separator className="session-menu-separator" />
          <Item
            id="jsonl"
            name="Download JSONL"
            what="The session file, as pi reads it"
            href={urls.jsonl}
          />
          <Item
            id="path-html"
            name="Export path as HTML"
            what="This branch, as one page"
            href={urls.pathHtml}
          />
          <Item
            id="tree-html"
            name="Export tree as HTML"
            what="Every branch, as one page"
            href={urls.treeHtml}
          />
          <Item id="share" name="Share…" what="Links for other users of this Arbor" />
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

function Item(props: { id: string; name: string; what: string; href?: string }) {
  return (
    <MenuItem
      id={props.id}
      textValue={props.name}
      className="session-menu-item"
      {...(props.href ? { href: props.href, download: true } : {})}
    >
      <Text slot="label">{props.name}</Text>
      <Text slot="description" className="session-menu-what">
        {props.what}
      </Text>
    </MenuItem>
  );
}
