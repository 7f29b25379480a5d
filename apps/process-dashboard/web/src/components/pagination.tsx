/** Page controls of an API page (0-based `page`, `size`), with the total. */
import type { Page } from '../api/types';

export interface PaginationProps {
  label: string;
  page: Pick<Page<unknown>, 'page' | 'size' | 'totalElements' | 'totalPages' | 'totalElementsEstimated'> | undefined;
  onPage(page: number): void;
  onSize?(size: number): void;
}

export const PAGE_SIZES = [10, 25, 50, 100] as const;

export function Pagination({ label, page, onPage, onSize }: PaginationProps) {
  if (!page) return null;
  const last = Math.max(0, page.totalPages - 1);
  const from = page.totalElements === 0 ? 0 : page.page * page.size + 1;
  const to = Math.min(page.totalElements, (page.page + 1) * page.size);
  // Above the server's exact-count limit the total is the planner's estimate: say so.
  const about = page.totalElementsEstimated ? 'about ' : '';
  return (
    <nav className="pagination" aria-label={`${label} pages`}>
      <button type="button" onClick={() => onPage(0)} disabled={page.page === 0} aria-label="First page">
        «
      </button>
      <button type="button" onClick={() => onPage(page.page - 1)} disabled={page.page === 0} aria-label="Previous page">
        ‹ Previous
      </button>
      <span
        aria-live="polite"
        title={
          page.totalElementsEstimated
            ? 'An estimate: counting every row of a list this large would slow every refresh'
            : undefined
        }
      >
        Page {page.totalPages === 0 ? 0 : page.page + 1} of {about}
        {page.totalPages.toLocaleString('en')} · {from}–{to} of {about}
        {page.totalElements.toLocaleString('en')}
      </span>
      <button type="button" onClick={() => onPage(page.page + 1)} disabled={page.page >= last} aria-label="Next page">
        Next ›
      </button>
      <button type="button" onClick={() => onPage(last)} disabled={page.page >= last} aria-label="Last page">
        »
      </button>
      {onSize && (
        <label className="inline">
          Rows
          <select value={page.size} onChange={(e) => onSize(Number(e.target.value))}>
            {PAGE_SIZES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      )}
    </nav>
  );
}
