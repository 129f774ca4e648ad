import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { PREBUILT_BRIDGE, pageBridgeScript } from './page-script';

/** The built host's file name in its folder (out/web/host.mjs); `npm run start:web` runs it. */
export const BUILT_HOST = 'host.mjs';

const root = resolve(import.meta.dirname, '../../..');

/**
 * Builds the browser host ahead, so that starting it does no compiling: cli.ts and everything it
 * imports as one ES module for Node, and the page bridge as the very script the host would otherwise
 * bundle in memory at every start. Packages are bundled in too (conf and zod are the ones it loads):
 * one file loads in about half the time of the same code spread over node_modules. Vite stays outside,
 * imported only by a host that has to bundle the bridge itself. Part of `npm run build`; not packaged
 * with the Electron app.
 */
export async function buildBrowserHost(outDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  const [bridge] = await Promise.all([
    pageBridgeScript(),
    build({
      configFile: false,
      envDir: false,
      publicDir: false,
      logLevel: 'warn',
      root,
      ssr: { noExternal: true, external: ['vite'] },
      build: {
        ssr: join(root, 'electron/hosts/web/cli.ts'),
        outDir,
        emptyOutDir: false,
        minify: false,
        target: 'node24',
        rollupOptions: { output: { format: 'es', entryFileNames: BUILT_HOST } },
      },
    }),
  ]);
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, PREBUILT_BRIDGE), bridge.code);
}

if (import.meta.main) {
  const outDir = resolve(process.argv[2] ?? join(root, 'out/web'));
  buildBrowserHost(outDir).then(
    () => process.stdout.write(`browser host built: ${join(outDir, BUILT_HOST)}, ${PREBUILT_BRIDGE}\n`),
    (e: unknown) => {
      process.stderr.write(
        `Could not build the browser host: ${e instanceof Error ? e.message : String(e)}\n`,
      );
      process.exit(1);
    },
  );
}
