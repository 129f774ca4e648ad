/**
 * Service-style identifiers. transactionNo and refundTransactionNo are 18-digit strings (never numbers),
 * customerNo 22 digits, vaultId `pp_` + 32 hex. Drawn from a seeded stream and checked against every id
 * already issued, so a restart that replays the stream can never hand out a duplicate.
 */
import { randomBytes } from 'node:crypto';
import { createRng, deriveSeed, digits, hex, type Rng } from './prng';

export interface IdFactory {
  /** 18 digits, unique among all transaction and refund numbers. */
  transactionNo(): string;
  /** 22 digits. */
  customerNo(): string;
  /** `pp_` + 32 lowercase hex. */
  vaultId(): string;
  /** Unguessable token for hosted pages (checkout, 3-D Secure): 32 hex, from the OS, not the seed. */
  pageToken(): string;
}

/** `isTaken` tells whether an id already exists in the store. */
export function createIdFactory(
  seed: number,
  isTaken: (id: string) => boolean,
  rng: Rng = createRng(deriveSeed(seed, 'ids')),
): IdFactory {
  const fresh = (make: () => string): string => {
    for (;;) {
      const id = make();
      if (!isTaken(id)) return id;
    }
  };
  return {
    transactionNo: () => fresh(() => digits(rng, 18)),
    customerNo: () => fresh(() => digits(rng, 22)),
    vaultId: () => fresh(() => `pp_${hex(rng, 32)}`),
    pageToken: () => randomBytes(16).toString('hex'),
  };
}
