module.exports = { ...require('../../jest.preset.js'), displayName: 'queue-process-starter' };
