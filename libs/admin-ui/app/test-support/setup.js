// jsdom lacks a few browser and Node APIs the app and the test fixtures use: matchMedia (theme),
// and TextEncoder/TextDecoder/setImmediate for the real @fw/service registries the tests build.
const util = require('node:util');
const timers = require('node:timers');
globalThis.TextEncoder ??= util.TextEncoder;
globalThis.TextDecoder ??= util.TextDecoder;
globalThis.setImmediate ??= timers.setImmediate;
globalThis.clearImmediate ??= timers.clearImmediate;
window.matchMedia =
  window.matchMedia ||
  ((query) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    dispatchEvent: () => false,
  }));
globalThis.IS_REACT_ACT_ENVIRONMENT = true;
// findBy*/waitFor give up after 1 s by default; a loaded 2-core CI machine can take longer to
// render, and a slow pass is not a failure. Configured on @testing-library/dom: requiring
// @testing-library/react here, before Jest's globals exist, would skip its automatic cleanup.
require('@testing-library/dom').configure({ asyncUtilTimeout: 5000 });
