import { randomBytes, randomUUID } from 'node:crypto';

/**
 * A new entry id as pi makes it: the first 8 hex characters of a random UUID, checked against the
 * ids already in use; after 100 collisions, a whole UUID.
 */
export function generateEntryId(inUse: { has(id: string): boolean }): string {
  for (let i = 0; i < 100; i++) {
    const id = randomUUID().slice(0, 8);
    if (!inUse.has(id)) return id;
  }
  return randomUUID();
}

/** A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then random bits, as pi 0.73 uses. */
export function uuidv7(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
