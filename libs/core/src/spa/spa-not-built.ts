/**
 * The one answer of every single-page app that is not built (a checkout before its build ran):
 * 503 with a short page naming the app and the command that builds it. Installed packages ship
 * their build, so only a developer sees it, and the status keeps monitors from taking it for the app.
 */

export interface SpaNotBuiltPage {
  /** The app, as a sentence starts: `'The admin UI'`. */
  appName: string;
  /** The command that builds it: `'npm run build -w @fw/admin-ui'`. */
  buildCommand: string;
  /** One more sentence: what works meanwhile. */
  note?: string;
}

/** Status of the not-built answer. */
export const SPA_NOT_BUILT_STATUS = 503;

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The page of the not-built answer (no style, no script: it passes the strictest policy).
 *
 * @example
 * spaNotBuiltPage({ appName: 'The process dashboard', buildCommand: 'npm run build -w @fw/process-dashboard' });
 */
export function spaNotBuiltPage(page: SpaNotBuiltPage): string {
  const name = escapeHtml(page.appName);
  const note = page.note === undefined ? '' : `\n<p>${escapeHtml(page.note)}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${name} is not built</title></head>
<body><main><h1>${name} is not built</h1>
<p>${name} is not built in this installation: run <code>${escapeHtml(page.buildCommand)}</code> in the fw checkout, then reload.</p>${note}
</main></body></html>
`;
}
