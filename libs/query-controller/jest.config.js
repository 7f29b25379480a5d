module.exports = { ...require('../../jest.preset.js'), displayName: 'query-controller' };
