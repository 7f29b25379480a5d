const path = require('node:path');
const { testTimeout, ...preset } = require('../../jest.preset.js');

// Two kinds of tests: the router and proxy on Node (test/*.test.ts), the app's components in jsdom
// (app/src/**/*.test.tsx) with TSX through ts-jest.
module.exports = {
  testTimeout,
  projects: [
    { ...preset, displayName: 'admin-ui', rootDir: __dirname, testMatch: ['<rootDir>/test/**/*.test.ts'] },
    {
      ...preset,
      displayName: 'admin-ui app',
      rootDir: __dirname,
      testEnvironment: 'jsdom',
      testMatch: ['<rootDir>/app/src/**/*.test.tsx'],
      transform: {
        '^.+\\.tsx?$': ['ts-jest', { diagnostics: false, tsconfig: path.join(__dirname, 'app', 'tsconfig.jest.json') }],
      },
      moduleNameMapper: {
        ...preset.moduleNameMapper,
        '\\.css$': path.join(__dirname, 'app', 'test-support', 'style-stub.js'),
      },
      setupFiles: [path.join(__dirname, 'app', 'test-support', 'setup.js')],
    },
  ],
};
