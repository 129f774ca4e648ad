/**
 * The shape of the renderer bench's earlier 100k figures (renderer.bench.ts), printed beside the
 * figures of results.json but not written there (see figure.ts for those).
 */
import { median, round } from './figure';

export interface LegacyResult {
  name: string;
  size: number;
  unit: string;
  median: number;
  min: number;
  max: number;
  runs: number;
  floor: number | null;
  ratio: number | null;
  goal: string;
  met: boolean | null;
  note?: string;
}

export function legacyResult(
  base: Pick<LegacyResult, 'name' | 'size' | 'unit' | 'goal'> & { note?: string },
  samples: number[],
  floorSamples: number[] | null,
  met: (median: number, ratio: number | null) => boolean | null,
): LegacyResult {
  const m = median(samples);
  const floor = floorSamples && floorSamples.length > 0 ? median(floorSamples) : null;
  const ratio = floor ? round(m / floor) : null;
  return {
    ...base,
    median: round(m),
    min: round(Math.min(...samples)),
    max: round(Math.max(...samples)),
    runs: samples.length,
    floor: floor === null ? null : round(floor),
    ratio,
    met: met(m, ratio),
  };
}
