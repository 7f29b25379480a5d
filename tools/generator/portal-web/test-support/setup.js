// jsdom lacks TextEncoder/TextDecoder (the API client's log reader) and React wants to know it runs under act().
const util = require('node:util');
globalThis.TextEncoder ??= util.TextEncoder;
globalThis.TextDecoder ??= util.TextDecoder;
globalThis.IS_REACT_ACT_ENVIRONMENT = true;
// findBy*/waitFor give up after 1 s by default; a loaded 2-core CI machine can take longer to
// render, and a slow pass is not a failure. Configured on @testing-library/dom: requiring
// @testing-library/react here, before Jest's globals exist, would skip its automatic cleanup.
require('@testing-library/dom').configure({ asyncUtilTimeout: 5000 });
module.exports = {};
