import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The browser host's bridge script as served, and the source modules it was bundled from. */
export interface PageScript {
  code: string;
  moduleIds: string[];
}

/** The prebuilt bridge's file name, beside the built host (out/web/bridge.js). */
export const PREBUILT_BRIDGE = 'bridge.js';

const entry = fileURLToPath(new URL('./page/bridge.ts', import.meta.url));
let bundled: Promise<PageScript> | undefined;

/**
 * Bundles page/bridge.ts — the shared `buildBridge` over loopback HTTP — into one classic script with
 * Vite (already the renderer's build tool), in memory, once per process: served before the renderer's
 * module, so the bridge exists when the app boots. `npm run build` writes the same script to
 * out/web/bridge.js through this function, and the built host serves that file; a host run from source
 * (tests, `tsx electron/hosts/web/cli.ts`) bundles here instead, about a second with Vite's start.
 */
export function pageBridgeScript(): Promise<PageScript> {
  bundled ??= bundle().catch((e: unknown) => {
    bundled = undefined; // a failed build is not remembered: the next host start tries again
    throw e;
  });
  return bundled;
}

/**
 * The bridge script a host serves: the prebuilt one in `dir` (the built host's own folder) when it is
 * there, otherwise bundled from source in memory, which `note` is told about.
 */
export async function servedBridgeScript(dir: string, note: (text: string) => void): Promise<string> {
  const prebuilt = join(dir, PREBUILT_BRIDGE);
  try {
    return await readFile(prebuilt, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  note(
    `No prebuilt page bridge at ${prebuilt}: bundling it from source in memory (npm run build prebuilds it).`,
  );
  return (await pageBridgeScript()).code;
}

async function bundle(): Promise<PageScript> {
  // Imported here, not at the top: loading Vite alone takes most of a second, and the built host,
  // which serves the prebuilt script, never needs it.
  const { build } = await import('vite');
  const out = await build({
    configFile: false,
    envDir: false,
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
