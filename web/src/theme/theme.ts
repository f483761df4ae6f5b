import { useSyncExternalStore } from 'react';

/*
 * Light, dark, or the system's: the user's choice is remembered in this browser (localStorage)
 * and set as `data-theme` on <html>, which tokens.css reads; "system" removes it, so the
 * `prefers-color-scheme` query decides. The graph (React Flow's colorMode) follows the theme in
 * effect.
 */

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
const KEY = 'arbor.theme';

export function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system'; // storage off (private mode, a policy): the system decides
  }
}

/** Puts `choice` in effect on the page. */
export function applyTheme(choice: ThemeChoice): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}

const choiceListeners = new Set<() => void>();

/** Remembers `choice` in this browser, puts it in effect, and tells every control showing it. */
export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Not remembered; still applied for this page.
  }
  applyTheme(choice);
  for (const listener of choiceListeners) listener();
}

function choiceNow(): ThemeChoice {
  const chosen = document.documentElement.dataset.theme;
  return chosen === 'light' || chosen === 'dark' ? chosen : 'system';
}

function subscribeChoice(onChange: () => void): () => void {
  choiceListeners.add(onChange);
  return () => choiceListeners.delete(onChange);
}

/** The user's choice (one for the page: the theme select and the command palette share it). */
export function useThemeChoice(): [ThemeChoice, (choice: ThemeChoice) => void] {
  return [useSyncExternalStore(subscribeChoice, choiceNow, () => 'system'), setThemeChoice];
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener('change', onChange);
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => {
    query.removeEventListener('change', onChange);
    observer.disconnect();
  };
}

function themeInEffect(): 'light' | 'dark' {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

/** The theme in effect now (the choice, or the system's), kept current. */
export function useThemeInEffect(): 'light' | 'dark' {
  return useSyncExternalStore(subscribe, themeInEffect, () => 'light');
}
