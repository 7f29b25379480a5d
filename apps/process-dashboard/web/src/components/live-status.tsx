/** "updated n s ago", a refresh button and the pause switch of the live refresh. */
import { usePreferences, useSecondsSince } from '../app/preferences';

export interface LiveStatusProps {
  /** `dataUpdatedAt` of the view's query (0 before the first answer). */
  updatedAt: number;
  fetching: boolean;
  onRefresh(): void;
}

export function LiveStatus({ updatedAt, fetching, onRefresh }: LiveStatusProps) {
  const { paused, setPaused } = usePreferences();
  const seconds = useSecondsSince(updatedAt);
  return (
    <div className="live" aria-label="Live refresh">
      <span className="live-age" data-testid="updated-ago">
        {updatedAt === 0 ? 'not loaded yet' : `updated ${seconds} s ago`}
        {fetching ? ' · refreshing…' : ''}
      </span>
      <button type="button" onClick={onRefresh} title="Refresh now (r)">
        Refresh
      </button>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={paused}
          onChange={(e) => setPaused(e.target.checked)}
          aria-describedby="live-note"
        />
        Pause
      </label>
      <span id="live-note" className="sr-only">
        {paused ? 'Live refresh paused' : 'Refreshes every 10 seconds'}
      </span>
    </div>
  );
}
