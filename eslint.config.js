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
  // The renderer reaches main only through the bridge; it may not import main-process code.
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
      'no-restricted-imports': [
        'error',
        {
          ...noElectron,
          patterns: [
            ...noElectron.patterns,
            { group: ['**/electron/**'], message: 'The renderer talks to main only through lib/bridge.' },
          ],
        },
      ],
    },
  },
);
