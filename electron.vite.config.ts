import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// Main builds as ESM ("type": "module"); electron-store/conf are ESM-only, so they are bundled
// rather than left as runtime requires. The preload must be ONE CommonJS file because a sandboxed
// preload cannot load ES modules or require packages.
export default defineConfig({
  main: {
    build: {
      externalizeDeps: { exclude: ['electron-store', 'conf'] },
      rollupOptions: { input: { index: resolve('electron/app/main.ts') } },
    },
  },
  preload: {
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('electron/app/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  // The renderer ships minified and split (issue 30): the libraries every screen uses in chunks of their
  // own, which change less often than the app's code, and the screens other than the landing one loaded
  // when first opened (App.tsx). Every file name carries its content's hash, so the hosts can let the
  // browser keep them for good (electron/core/adapters/asset-cache.ts); only index.html is asked again.
  renderer: {
    root: resolve('renderer'),
    build: {
      minify: true,
      rollupOptions: {
        input: resolve('renderer/index.html'),
        output: {
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
              // Only the libraries the landing screen runs on: one a later screen alone uses (papaparse for
              // imported files, qrcode.react for payment links) loads with that screen instead.
              { name: 'vendor', test: /node_modules[\\/](@tanstack|dexie|zod)[\\/]/ },
            ],
          },
        },
      },
    },
    plugins: [react()],
  },
});
