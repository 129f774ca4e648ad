// Preloaded (node --require) into the advisory electronegativity run of .ci/run only.
// The scanner fetches translations and Electron's release list through `got`; on a machine without
// internet, got's retry timers throw after the request already failed, which kills the scan on
// Node ≥ 21. Those network errors are ignored here; any other error still ends the run.
const isNetworkNoise = (e) =>
  Boolean(e) &&
  (['RequestError', 'TimeoutError', 'CancelError'].includes(e.name) || /onCancel/.test(String(e.message)));
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, (e) => {
    if (isNetworkNoise(e)) return;
    console.error(e);
    process.exit(70);
  });
}
