/*
 * What a session is called wherever it is shown: its name, else its first prompt, else "Untitled
 * session". The sidebar, the page's title, search results and exported pages and their file names
 * all say the same.
 */

export const UNTITLED_SESSION = 'Untitled session';

/** The title of a session with this name (if any) and this first prompt (may be ''). */
export function sessionTitle(session: { name?: string | undefined; firstMessage: string }): string {
  const name = session.name?.trim();
  if (name) return name;
  const first = session.firstMessage.trim();
  return first && first !== '(no messages)' ? first : UNTITLED_SESSION;
}

/**
 * A file name for something of the session titled `title`: its first words in lower case, joined
 * by dashes (letters and digits of any script are kept), at most 60 characters, then `suffix`.
 */
export function titleFileName(title: string, suffix: string): string {
  const words = title
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
  let stem = '';
  for (const word of words) {
    const next = stem ? `${stem}-${word}` : word;
    if (next.length > 60) break;
    stem = next;
  }
  return `${stem || 'session'}${suffix}`;
}
