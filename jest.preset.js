// Shared Jest settings: TypeScript through ts-jest in transpile-only mode (fast; `npm run typecheck`
// does the type checking), and workspace packages resolved to their sources so tests never need a
// prior build. (ts-jest rather than @swc/jest: SWC's per-platform binaries are not all on the
// registry this project installs from, which breaks `npm ci` on a clean checkout.)
const path = require('node:path');
const root = __dirname;

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false, tsconfig: path.join(root, 'tsconfig.jest.json') }],
  },
  moduleNameMapper: {
    '^@fw/test-support$': path.join(root, 'tools/test-support/src/index.ts'),
    '^@fw/migrate$': path.join(root, 'tools/migrate/src/index.ts'),
    '^@fw/generator$': path.join(root, 'tools/generator/src/index.ts'),
    '^@fw/admin-server$': path.join(root, 'apps/admin-server/src/index.ts'),
    '^@fw/query-host$': path.join(root, 'apps/query-host/src/index.ts'),
    '^@fw/process-dashboard$': path.join(root, 'apps/process-dashboard/src/index.ts'),
    '^@fw/([a-z0-9-]+)/http$': path.join(root, 'libs/$1/src/http.ts'),
    '^@fw/service/mcp$': path.join(root, 'libs/service/src/mcp.ts'),
    '^@fw/([a-z0-9-]+)/testing$': path.join(root, 'libs/$1/src/testing.ts'),
    '^@fw/([a-z0-9-]+)$': path.join(root, 'libs/$1/src/index.ts'),
  },
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/src/**/*.test.ts'],
  // Generous: CI is a 2-core machine running two Jest processes and PostgreSQL at once.
  testTimeout: 60000,
};
