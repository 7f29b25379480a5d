// Shared Jest settings: TypeScript through SWC (fast, no type check: `npm run typecheck` does that),
// and workspace packages resolved to their sources so tests never need a prior build.
const path = require('node:path');
const root = __dirname;

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleNameMapper: {
    '^@fw/test-support$': path.join(root, 'tools/test-support/src/index.ts'),
    '^@fw/([a-z0-9-]+)$': path.join(root, 'libs/$1/src/index.ts'),
  },
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/src/**/*.test.ts'],
  testTimeout: 30000,
};
