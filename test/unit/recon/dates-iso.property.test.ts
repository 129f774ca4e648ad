/**
 * The list's times are stored as instants (schema v14) and written again as text with isoInstant:
 * it must be exactly toISOString, and instantMs must read that text back as the same instant.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantMs, isoInstant, ISO_INSTANTS } from '../../../shared/recon/dates';

describe('isoInstant', () => {
  it('is toISOString for every instant of a four-digit year, and instantMs reads it back', () => {
    const edges = fc.constantFrom(
      ISO_INSTANTS.from,
      ISO_INSTANTS.to - 1,
      0,
      -1,
      951_782_400_000, // 2000-02-29
      4_107_542_399_999, // 2100-02-28T23:59:59.999
      -62_162_035_200_000, // 0000-02-29 (a leap year)
    );
    fc.assert(
      fc.property(fc.oneof(edges, fc.integer({ min: ISO_INSTANTS.from, max: ISO_INSTANTS.to - 1 })), (ms) => {
        const text = isoInstant(ms);
        expect(text).toBe(new Date(ms).toISOString());
        expect(instantMs(text)).toBe(ms);
      }),
      { numRuns: 20_000 },
    );
  });
});
