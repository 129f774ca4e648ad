import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** The browser host's bridge script as served, and the source modules it was bundled from. */
export interface PageScript {
  code: string;
  moduleIds: string[];
}

const entry = fileURLToPath(new URL('./page/bridge.ts', import.meta.url));
let bundled: Promise<PageScript> | undefined;

/**
 * Bundles page/bridge.ts — the shared `buildBridge` over loopback HTTP — into one classic script with
 * Vite (already the renderer's build tool), in memory, once per process: served before the renderer's
 * module, so the bridge exists when the app boots. About a tenth of a second.
 */
export function pageBridgeScript(): Promise<PageScript> {
  bundled ??= bundle().catch((e: unknown) => {
    bundled = undefined; // a failed build is not remembered: the next host start tries again
    throw e;
  });
  return bundled;
}

async function bundle(): Promise<PageScript> {
  const out = await build({
    configFile: false,
    envFile: false,
    publicDir: false,
    logLevel: 'silent',
    root: fileURLToPath(new URL('./page', import.meta.url)),
    build: {
      write: false,
      minify: false,
      emptyOutDir: false,
      lib: { entry, formats: ['iife'], name: 'refundDeskHostBridge', fileName: 'bridge' },
    },
  });
  const result = Array.isArray(out) ? out[0] : out;
  if (!result || !('output' in result)) throw new Error('The page bridge did not build to one script.');
  const chunk = result.output.find((o) => o.type === 'chunk' && o.isEntry);
  if (!chunk || chunk.type !== 'chunk') throw new Error('The page bridge build has no entry script.');
  return { code: chunk.code, moduleIds: chunk.moduleIds };
}
