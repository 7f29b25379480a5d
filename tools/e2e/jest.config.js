module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'e2e',
  // One browser and one set of hosts per test file; files run one after another (--runInBand) so a
  // 2-core CI machine is not asked to drive several Chromium instances at once.
  testTimeout: 120000,
};
