const path = require('node:path');
const { testTimeout, ...preset } = require('../../jest.preset.js');

// Blueprint template trees hold package.json files of the projects they generate: keep them out of
// Jest's module map (they would collide by name) and out of test discovery. Two kinds of tests: the
// generator, CLI and portal on Node (test/*.test.ts), the portal page's components in jsdom
// (portal-web/src/**/*.test.tsx) with TSX through ts-jest.
const ignored = ['<rootDir>/blueprints/', '<rootDir>/dist/'];

module.exports = {
  testTimeout,
  projects: [
    { ...preset, displayName: 'generator', rootDir: __dirname, modulePathIgnorePatterns: ignored },
    {
      ...preset,
      displayName: 'generator portal-web',
      rootDir: __dirname,
      modulePathIgnorePatterns: ignored,
      testEnvironment: 'jsdom',
      testMatch: ['<rootDir>/portal-web/src/**/*.test.tsx'],
      transform: {
        '^.+\\.tsx?$': [
          'ts-jest',
          { diagnostics: false, tsconfig: path.join(__dirname, 'portal-web', 'tsconfig.jest.json') },
        ],
      },
      moduleNameMapper: {
        ...preset.moduleNameMapper,
        '\\.css$': path.join(__dirname, 'portal-web', 'test-support', 'style-stub.js'),
      },
      setupFiles: [path.join(__dirname, 'portal-web', 'test-support', 'setup.js')],
    },
  ],
};
