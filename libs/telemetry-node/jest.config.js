module.exports = { ...require('../../jest.preset.js'), displayName: 'telemetry-node' };
