import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/unit/**/*.test.tsx',
      'test/integration/**/*.test.ts',
      'test/sandbox/**/*.test.ts',
      'test/contract/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // electron-store imports 'electron' itself: inlined, it sees the tests' vi.mock('electron') instead of
    // the real wrapper (which would try to download the binary).
    server: { deps: { inline: ['electron-store'] } },
    // The JSON report feeds .ci/run's "N passed, N failed" total.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
