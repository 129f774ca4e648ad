// Loaded with `node --import` into the electron package's own installer by ensure-electron.ts. When a
// download cannot even connect, the installer prints only "TypeError: fetch failed"; this adds one marked
// stderr line saying which address failed and why (ECONNREFUSED, ENOTFOUND, …), so the launcher can say it
// in words. It observes only: the request, its result and the error thrown are unchanged.
const MARK = 'refund-desk:fetch-failed ';
const realFetch = globalThis.fetch;

globalThis.fetch = async function fetchReportingFailures(input, init) {
  try {
    return await realFetch(input, init);
  } catch (error) {
    const cause = error instanceof Error ? error.cause : undefined;
    const code =
      (cause && typeof cause === 'object' && 'code' in cause && cause.code) ||
      (cause instanceof AggregateError ? cause.errors.find((e) => e && e.code)?.code : undefined);
    const url = input instanceof Request ? input.url : String(input);
    const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : '';
    process.stderr.write(`${MARK}${JSON.stringify({ url, code: code || undefined, message })}\n`);
    throw error;
  }
};
