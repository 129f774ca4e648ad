/**
 * One figure of results.json: a median of runs beside the floor or peer measured in the same run,
 * alternating, so both see the same machine. The machine's load (1-minute average, and its cores) is
 * kept beside it: on a shared machine absolute times drift, ratios less so.
 */
import { cpus, loadavg } from 'node:os';
import type { Figure } from './harness';
import type { FigureName } from './results-file';

export interface Result {
  name: FigureName;
  size: number;
  unit: string;
  median: number;
  min: number;
  max: number;
  runs: number;
  /** The same work done by the floor or peer, same run (median); null when it could not run. */
  floor: number | null;
  ratio: number | null;
  goal: string;
  met: boolean | null;
  /** Peak memory of our side (MB, median of runs), where measured beside the time. */
  peak_mb?: number;
  /** Peak memory of the floor or peer, measured the same way. */
  floor_peak_mb?: number;
  /**
   * CPU time (user + system, every thread; ms, median) of our side and of the peer, where each ran in
   * a process of its own: on a loaded machine it drifts less than wall time (a multi-threaded peer's
   * adds up its threads).
   */
  cpu_ms?: number;
  floor_cpu_ms?: number;
  /**
   * A second reference measured in the same run, alternating with both sides (the cold start's: the
   * product's fixed packages alone): its median and its ratio to the floor, how much of our ratio it
   * takes on its own.
   */
  reference?: { what: string; median: number; ratio: number };
  /** 1-minute load average when the figure started and ended, and the machine's cores. */
  load: { start: number; end: number; cores: number };
  note?: string;
}

export const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
export const round = (v: number) => Math.round(v * 100) / 100;

/** Runs per figure: 5 unless BENCH_RUNS says otherwise (a quick look: BENCH_RUNS=1). */
export const RUNS = Math.max(1, Number(process.env['BENCH_RUNS'] ?? 5));

/** The load now, to pass to result() as where a figure started. */
export const loadNow = () => round(loadavg()[0] ?? NaN);

export interface Samples {
  ours: readonly number[];
  floor: readonly number[] | null;
  peaks?: readonly number[];
  floorPeaks?: readonly number[];
  cpu?: readonly number[];
  floorCpu?: readonly number[];
  /** How the ratio reads: ours ÷ floor (time, memory) unless `floor/ours`. */
  ratio?: 'ours/floor' | 'floor/ours';
}

export function result(
  base: Pick<Result, 'name' | 'size' | 'unit' | 'goal' | 'reference'> & { note?: string },
  s: Samples,
  loadAtStart: number,
  met: (median: number, ratio: number | null) => boolean | null,
): Result {
  const ours = s.ours.filter(Number.isFinite);
  const floors = (s.floor ?? []).filter(Number.isFinite);
  const m = ours.length > 0 ? median(ours) : NaN;
  const floor = floors.length > 0 ? median(floors) : null;
  const ratio = floor && Number.isFinite(m) ? round(s.ratio === 'floor/ours' ? floor / m : m / floor) : null;
  const { reference, ...named } = base;
  const out: Result = {
    ...named,
    median: round(m),
    min: round(ours.length ? Math.min(...ours) : NaN),
    max: round(ours.length ? Math.max(...ours) : NaN),
    runs: ours.length,
    floor: floor === null ? null : round(floor),
    ratio,
    goal: base.goal,
    met: Number.isFinite(m) ? met(m, ratio) : false,
    ...(reference ? { reference } : {}),
    load: { start: loadAtStart, end: loadNow(), cores: cpus().length },
  };
  const peaks = (s.peaks ?? []).filter(Number.isFinite);
  const floorPeaks = (s.floorPeaks ?? []).filter(Number.isFinite);
  if (peaks.length) out.peak_mb = Math.round(median(peaks));
  if (floorPeaks.length) out.floor_peak_mb = Math.round(median(floorPeaks));
  const cpu = (s.cpu ?? []).filter(Number.isFinite);
  const floorCpu = (s.floorCpu ?? []).filter(Number.isFinite);
  if (cpu.length) out.cpu_ms = Math.round(median(cpu));
  if (floorCpu.length) out.floor_cpu_ms = Math.round(median(floorCpu));
  // The note last, so results.json reads figure first.
  if (base.note) {
    delete out.note;
    out.note = base.note;
  }
  return out;
}

export function tableOf(results: readonly Result[]): Figure[] {
  return results.map((r) => ({
    bench: r.name,
    metric: `median of ${r.runs} (${r.size.toLocaleString('en-US')})`,
    value: `${r.median} ${r.unit}${r.peak_mb !== undefined ? `, peak ${r.peak_mb} MB` : ''}${r.cpu_ms !== undefined ? `, cpu ${r.cpu_ms} ms` : ''}`,
    note: `${r.floor === null ? 'no floor' : `floor ${r.floor} ${r.unit}${r.floor_peak_mb !== undefined ? ` (peak ${r.floor_peak_mb} MB)` : ''}${r.floor_cpu_ms !== undefined ? ` (cpu ${r.floor_cpu_ms} ms)` : ''}, ratio ${r.ratio}`}; goal ${r.goal}; ${r.met === null ? 'not judged' : r.met ? 'met' : 'missed'}; load ${r.load.start}→${r.load.end} on ${r.load.cores} cores${r.note ? `; ${r.note}` : ''}`,
  }));
}
