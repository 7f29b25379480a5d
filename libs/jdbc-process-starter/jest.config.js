module.exports = { ...require('../../jest.preset.js'), displayName: 'jdbc-process-starter' };
