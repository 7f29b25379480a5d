/** What jsdom lacks and the app or its libraries touch (fetch is faked by the harness). */
import { TextDecoder, TextEncoder } from 'node:util';
class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
const g = globalThis as Record<string, unknown>;
g.TextEncoder ??= TextEncoder;
g.TextDecoder ??= TextDecoder;
g.ResizeObserver ??= ResizeObserverStub;
if (typeof window !== 'undefined') {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
  window.confirm = () => true;
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
}

// findBy*/waitFor give up after 1 s by default; a loaded 2-core CI machine can take longer to fetch
// (faked) and render, and a slow pass is not a failure. Configured on @testing-library/dom: importing
// @testing-library/react here, before Jest's globals exist, would skip its automatic cleanup.
import { configure } from '@testing-library/dom';
configure({ asyncUtilTimeout: 5000 });
