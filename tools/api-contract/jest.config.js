module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'api-contract',
  // Each file starts real hosts and runs tsc or thousands of requests: one file at a time (--runInBand).
  testTimeout: 180000,
};
