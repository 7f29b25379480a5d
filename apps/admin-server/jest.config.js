module.exports = { ...require('../../jest.preset.js'), displayName: 'admin-server' };
