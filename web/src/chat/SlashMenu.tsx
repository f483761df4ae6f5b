import './slash-menu.css';
import { useEffect } from 'react';
import type { SlashMenuState } from './use-slash-menu';

/**
 * The `/` menu's list under the editor: prompt templates (`/name`, argument hint, description)
 * and skills (`/skill:name`, description). Focus stays in the editor, which names the highlighted
 * option as its active descendant; a click chooses an option without taking the focus away.
 */
export function SlashMenu({
  menu,
  offReason,
}: {
  menu: SlashMenuState;
  /** Why the workspace's templates and skills are not loaded, shown where they would be listed. */
  offReason: string | null;
}) {
  const count = menu.options.length;
  // The highlighted option stays in sight as the arrows move it through a long list.
  const activeId = menu.open ? menu.optionId(menu.activeIndex) : null;
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);
  return (
    <div className="slash-menu">
      {menu.typing && offReason !== null ? <p className="slash-off">{offReason}</p> : null}
      {menu.open ? (
        <ul id={menu.listId} role="listbox" aria-label="Prompt templates and skills">
          {menu.options.map((item, index) => (
            <li
              key={item.command}
              id={menu.optionId(index)}
              role="option"
              aria-selected={index === menu.activeIndex}
              className={index === menu.activeIndex ? 'is-active' : undefined}
              data-kind={item.kind}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => menu.choose(index)}
            >
              <span className="slash-command">/{item.command}</span>
              {item.argumentHint ? (
                <>
                  {' '}
                  <span className="slash-hint">{item.argumentHint}</span>
                </>
              ) : null}
              {item.description ? (
                <>
                  {' '}
                  <span className="slash-description">{item.description}</span>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="visually-hidden" role="status">
        {menu.open
          ? `${count} ${count === 1 ? 'match' : 'matches'}: arrow keys choose, Enter or Tab inserts, Escape closes.`
          : ''}
      </p>
    </div>
  );
}
