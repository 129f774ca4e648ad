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
        output: { format: 'cjs', entryFileNames: '[name].cjs', inlineDynamicImports: true },
      },
    },
  },
  renderer: {
    root: resolve('renderer'),
    build: { rollupOptions: { input: resolve('renderer/index.html') } },
    plugins: [react()],
  },
});
