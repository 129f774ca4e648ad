import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'vite';
import { PREBUILT_BRIDGE, pageBridgeScript } from './page-script';

/** The built host's file name in its folder (out/web/host.mjs); `npm run start:web` runs it. */
export const BUILT_HOST = 'host.mjs';
/** The bundle itself, which BUILT_HOST imports once Node's compile cache is on. */
export const BUILT_HOST_BUNDLE = 'host-bundle.mjs';

/**
 * What `npm run start:web` runs: it turns on Node's compile cache (V8's code for the bundle, kept in the
 * OS temp folder) and then loads the bundle, so every start after the first skips compiling ~1.7 MB of
 * JavaScript (a quarter of the host's start). The cache has to be on before the bundle is compiled,
 * hence a file of its own in front of it.
 */
const HOST_ENTRY = `// Built by electron/hosts/web/build.ts: Node's compile cache on, then the host.
import { enableCompileCache } from 'node:module';
enableCompileCache?.();
await import('./${BUILT_HOST_BUNDLE}');
`;

/**
 * Node modules the bundle takes through require() instead of \`import\`. Importing a built-in module
 * reads every export once, and node:http's WebSocket, CloseEvent and MessageEvent are getters that load
 * Node's whole fetch implementation (undici): ~50 ms of the host's start for classes it never uses.
 */
const REQUIRED_BUILTINS = ['node:http'];
const VIRTUAL = '\0required-builtin:';

function requiredBuiltins(): Plugin {
  return {
    name: 'refund-desk:required-builtins',
    enforce: 'pre',
    resolveId: (id) => (REQUIRED_BUILTINS.includes(id) ? `${VIRTUAL}${id}` : undefined),
    load(id) {
      if (!id.startsWith(VIRTUAL)) return undefined;
      const name = id.slice(VIRTUAL.length);
      const mod = createRequire(import.meta.url)(name) as Record<string, unknown>;
      // Plain values only: a getter (the ones above) would be read, and undici loaded, at start.
      const names = Object.entries(Object.getOwnPropertyDescriptors(mod))
        .filter(([key, d]) => 'value' in d && /^[A-Za-z_$][\w$]*$/.test(key))
        .map(([key]) => key);
      return [
        `import { createRequire } from 'node:module';`,
        `const mod = createRequire(import.meta.url)(${JSON.stringify(name)});`,
        `export default mod;`,
        ...names.map((key) => `export const ${key} = mod.${key};`),
      ].join('\n');
    },
  };
}

/**
 * Packages conf imports but uses only for a settings schema, which the host never gives it (node-core.ts
 * opens its settings without one): JSON-schema validation (ajv, ~340 kB) would be loaded and run at every
 * start for nothing. The host's build puts a stand-in there that says so if it is ever used.
 */
export const UNUSED_BY_HOST = ['ajv/dist/2020.js', 'ajv-formats'];
const UNUSED = '\0unused-by-host:';
export const UNUSED_MESSAGE =
  "The browser host was built without JSON-schema validation (ajv): conf's settings have no schema here.";

function unusedPackages(): Plugin {
  return {
    name: 'refund-desk:unused-by-host',
    enforce: 'pre',
    resolveId: (id) => (UNUSED_BY_HOST.includes(id) ? `${UNUSED}${id}` : undefined),
    load: (id) =>
      id.startsWith(UNUSED)
        ? [
            `const refuse = () => { throw new Error(${JSON.stringify(UNUSED_MESSAGE)}); };`,
            `export class Ajv2020 { constructor() { refuse(); } }`,
            `export default { default: refuse };`,
          ].join('\n')
        : undefined,
  };
}

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
      plugins: [requiredBuiltins(), unusedPackages()],
      build: {
        // One entry (cli.ts, small: it prints the URL); the core's code is a chunk it imports after that
        // (open-core.ts).
        ssr: true,
        outDir,
        emptyOutDir: false,
        minify: false,
        target: 'node24',
        rollupOptions: {
          input: {
            [BUILT_HOST_BUNDLE.replace(/\.mjs$/, '')]: join(root, 'electron/hosts/web/cli.ts'),
          },
          output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
        },
      },
    }),
  ]);
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, PREBUILT_BRIDGE), bridge.code);
  await writeFile(join(outDir, BUILT_HOST), HOST_ENTRY);
}

if (import.meta.main) {
  const outDir = resolve(process.argv[2] ?? join(root, 'out/web'));
  buildBrowserHost(outDir).then(
    () =>
      process.stdout.write(
        `browser host built: ${join(outDir, BUILT_HOST)}, ${BUILT_HOST_BUNDLE}, ${PREBUILT_BRIDGE}\n`,
      ),
    (e: unknown) => {
      process.stderr.write(
        `Could not build the browser host: ${e instanceof Error ? e.message : String(e)}\n`,
      );
      process.exit(1);
    },
  );
}
