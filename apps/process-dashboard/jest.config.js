// Server-side tests (test/, node) and component tests (web/test/, jsdom through their
// `@jest-environment jsdom` docblock). TypeScript and TSX go through ts-jest with jsx: react-jsx.
const path = require('node:path');
const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'process-dashboard',
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { diagnostics: false, tsconfig: path.join(__dirname, 'web/tsconfig.jest.json') }],
  },
  moduleNameMapper: {
    '\\.css$': path.join(__dirname, 'web/test/style-stub.js'),
    ...preset.moduleNameMapper,
  },
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/web/test/**/*.test.ts', '<rootDir>/web/test/**/*.test.tsx'],
  setupFiles: [path.join(__dirname, 'web/test/setup-polyfills.ts')],
  testEnvironmentOptions: { customExportConditions: ['browser', 'require', 'default'] },
  testTimeout: 30000,
};
