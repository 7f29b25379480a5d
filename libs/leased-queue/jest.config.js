module.exports = { ...require('../../jest.preset.js'), displayName: 'leased-queue' };
