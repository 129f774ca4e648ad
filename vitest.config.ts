import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // The JSON report feeds .ci/run's "N passed, N failed" total.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
