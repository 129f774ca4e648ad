/**
 * Main-thread work per frame from a Chromium trace (CDP Tracing, via Playwright's startTracing): the
 * page marks each frame's start (performance.mark('rd-frame')); the renderer main thread's top-level
 * tasks are summed inside each interval between two marks. Unlike a frame *interval*, which never drops
 * below the display's vsync, this says how much of each frame the page's own work took.
 */

interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time inside the event (µs): what it ran, without the waits for a core. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

export const TRACE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
];

const TASK_NAMES = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

/**
 * Busy ms of the main thread in each frame, in frame order: wall time of its tasks (`wall`), or their
 * CPU time (`cpu`, the trace's thread duration, spread over the task's span), which leaves out the time
 * the thread waited for a core on a loaded machine.
 */
export function busyPerFrame(
  trace: Buffer | string,
  mark = 'rd-frame',
  measure: 'wall' | 'cpu' = 'wall',
): number[] {
  const parsed = JSON.parse(typeof trace === 'string' ? trace : trace.toString('utf8')) as
    { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const marks = events
    .filter((e) => e.name === mark && (e.cat ?? '').includes('blink.user_timing'))
    .sort((a, b) => a.ts - b.ts);
  if (marks.length < 2) throw new Error(`the trace has ${marks.length} '${mark}' marks`);
  const { pid } = marks[0]!;
  const main = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain',
  );
  const tid = main?.tid ?? marks[0]!.tid;
  // Outermost tasks only (a task inside another is already counted in it).
  const tasks = events
    .filter((e) => e.ph === 'X' && e.pid === pid && e.tid === tid && TASK_NAMES.has(e.name) && e.dur)
    .sort((a, b) => a.ts - b.ts);
  const top: Array<{ start: number; end: number; cpu: number }> = [];
  for (const t of tasks) {
    const end = t.ts + (t.dur ?? 0);
    const last = top.at(-1);
    if (last && t.ts < last.end) {
      last.end = Math.max(last.end, end);
      continue;
    }
    top.push({ start: t.ts, end, cpu: t.tdur ?? t.dur ?? 0 });
  }
  const out: number[] = [];
  let k = 0;
  for (let i = 0; i + 1 < marks.length; i += 1) {
    const from = marks[i]!.ts;
    const to = marks[i + 1]!.ts;
    while (k < top.length && top[k]!.end <= from) k += 1;
    let busy = 0;
    for (let j = k; j < top.length && top[j]!.start < to; j += 1) {
      const t = top[j]!;
      const inFrame = Math.max(0, Math.min(to, t.end) - Math.max(from, t.start));
      busy += measure === 'wall' ? inFrame : (t.cpu * inFrame) / Math.max(1, t.end - t.start);
    }
    out.push(busy / 1000);
  }
  return out;
}

export const p95 = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(0.95 * s.length))] ?? NaN;
};
