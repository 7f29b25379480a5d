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
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false })) as typeof window.matchMedia;
  window.confirm = () => true;
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
}
