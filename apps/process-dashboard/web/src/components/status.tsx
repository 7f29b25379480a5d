/** Status badges and the progress bar of a process (completed / total children). */

const TONE: Record<string, string> = {
  PROCESSED: 'ok',
  COMPLETED: 'ok',
  PROCESSED_WITH_ERRORS: 'bad',
  FAILED: 'bad',
  EXECUTING: 'run',
  RUNNING: 'run',
  SPLIT_PENDING: 'wait',
  SUB_PROCESSES_PENDING: 'wait',
  AGGREGATION_PENDING: 'wait',
};

export function StatusBadge({ status }: { status: string | null | undefined }) {
  const text = status ?? 'unknown';
  return <span className={`badge badge-${TONE[text] ?? 'none'}`}>{text.replace(/_/g, ' ').toLowerCase()}</span>;
}

export interface ProgressProps {
  done: number;
  total: number;
  percent?: number;
  label: string;
}

export function ProgressBar({ done, total, percent, label }: ProgressProps) {
  const value = total > 0 ? Math.round((done / total) * 100) : (percent ?? 0);
  return (
    <div className="progress-wrap">
      <div
        className="progress"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={total > 0 ? `${done} of ${total} children completed` : `${value} %`}
      >
        <div className="progress-fill" style={{ width: `${value}%` }} />
      </div>
      <span className="progress-text">{total > 0 ? `${done} / ${total}` : `${value} %`}</span>
    </div>
  );
}
