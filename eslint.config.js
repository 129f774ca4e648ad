// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const noElectron = {
  paths: [{ name: 'electron', message: 'Only the Electron glue in electron/app/ may touch Electron.' }],
  patterns: [{ group: ['electron/*'], message: 'Only the Electron glue may touch Electron.' }],
};

const rendererImports = {
  ...noElectron,
  patterns: [
    ...noElectron.patterns,
    { group: ['**/electron/**'], message: 'The renderer talks to main only through lib/bridge.' },
  ],
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Services, the sandbox, shared code and the renderer never import Electron: they run in plain
  // Node (browser host, CLI, tests) and in a plain browser.
  {
    files: [
      'electron/core/**',
      'electron/sandbox/**',
      'shared/**',
      'renderer/**',
      'electron/hosts/**',
      'electron/launcher/**',
    ],
    rules: { 'no-restricted-imports': ['error', noElectron] },
  },
  // Services reach I/O only through ports: files, sockets, servers, processes and the database are
  // adapters (electron/core/adapters), handed to services by the composition root.
  {
    files: ['electron/core/services/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...noElectron,
          paths: [
            ...noElectron.paths,
            ...[
              'fs',
              'fs/promises',
              'http',
              'https',
              'net',
              'dgram',
              'child_process',
              'worker_threads',
            ].flatMap((m) => [
              { name: m, message: 'Services reach I/O only through ports; put this in an adapter.' },
              {
                name: `node:${m}`,
                message: 'Services reach I/O only through ports; put this in an adapter.',
              },
            ]),
            { name: 'node:sqlite', message: 'The database is an adapter (electron/core/adapters/sqlite).' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Services call the network through the HttpClient port.' },
      ],
    },
  },
  // The renderer reaches main only through the bridge; it may not import main-process code.
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
      'no-restricted-imports': ['error', rendererImports],
    },
  },
  // The cache has one owner (renderer/src/db/owner): it alone writes IndexedDB and keeps the query cache
  // in step, so screens and features reach the cache only through it — never Dexie or IndexedDB itself.
  {
    files: ['renderer/src/app/**', 'renderer/src/features/**', 'renderer/src/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...rendererImports,
          paths: [
            ...rendererImports.paths,
            { name: 'dexie', message: 'Reach the cache through db/owner (useCache), its one owner.' },
          ],
          patterns: [
            ...rendererImports.patterns,
            {
              group: ['**/db/*', '!**/db/owner'],
              message: 'Reach the cache through db/owner (useCache), its one owner.',
            },
            { group: ['dexie/*'], message: 'Reach the cache through db/owner (useCache), its one owner.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['indexedDB', 'IDBKeyRange', 'IDBFactory'].map((name) => ({
          name,
          message: 'Reach the cache through db/owner (useCache), its one owner.',
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...['window', 'self', 'globalThis'].map((object) => ({
          object,
          property: 'indexedDB',
          message: 'Reach the cache through db/owner (useCache), its one owner.',
        })),
      ],
    },
  },
  // The cache layer sits under the screens: it never depends on a feature (a screen's view model), or
  // the cache and the screen that reads it would import each other.
  {
    files: ['renderer/src/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...rendererImports,
          patterns: [
            ...rendererImports.patterns,
            {
              group: ['**/features/**', '**/app/**'],
              message: 'The cache layer imports no screen: move what it needs into db/ or shared/.',
            },
          ],
        },
      ],
    },
  },
);
