/** The open session is kept in the page's URL (`?session=ID`), so a reload reopens it. */
export function sessionFromUrl(): string | null {
  return new URLSearchParams(window.location.search).get('session');
}

export function showSessionInUrl(sessionId: string): void {
  const url = new URL(window.location.href);
  url.searchParams.set('session', sessionId);
  window.history.replaceState(null, '', url);
}
