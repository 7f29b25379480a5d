// jsdom lacks TextEncoder/TextDecoder (the API client's log reader) and React wants to know it runs under act().
const util = require('node:util');
globalThis.TextEncoder ??= util.TextEncoder;
globalThis.TextDecoder ??= util.TextDecoder;
globalThis.IS_REACT_ACT_ENVIRONMENT = true;
module.exports = {};
