// Moved to @fw/test-support (shared with other trace tests); this path re-exports it for now.
export { exportedSpans, startOtlpReceiver } from '@fw/test-support';
export type { ExportedSpan, OtlpReceiver, ReceivedExport } from '@fw/test-support';
