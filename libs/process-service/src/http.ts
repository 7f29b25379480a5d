// The `@fw/process-service/http` entry point: the `/process` express router. Kept out of the
// main entry so worker hosts need neither express nor its types (an optional peer here).
export { makeProcessRouter } from './http/process-router';
export type { ProcessRouterOptions } from './http/process-router';
