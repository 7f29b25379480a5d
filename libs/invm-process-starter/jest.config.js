module.exports = { ...require('../../jest.preset.js'), displayName: 'invm-process-starter' };
