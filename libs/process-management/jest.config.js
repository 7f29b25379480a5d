module.exports = { ...require('../../jest.preset.js'), displayName: 'process-management' };
