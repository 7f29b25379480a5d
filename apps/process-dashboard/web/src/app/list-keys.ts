/**
 * List navigation of a view: `j`/`k` move the focus between the row links of the list
 * (`[data-row-link]` inside the container), `x` toggles the focused row, `[`/`]` turn pages, `/`
 * focuses the first filter (`[data-filter]`).
 */
import type { RefObject } from 'react';
import { useShortcuts } from './shortcuts';

export interface ListKeysOptions {
  container: RefObject<HTMLElement | null>;
  onToggle?(rowId: string): void;
  onPage?(delta: -1 | 1): void;
}

function rowLinks(container: HTMLElement | null): HTMLElement[] {
  return container ? Array.from(container.querySelectorAll<HTMLElement>('[data-row-link]')) : [];
}

export function moveFocus(container: HTMLElement | null, delta: 1 | -1): HTMLElement | undefined {
  const links = rowLinks(container);
  if (links.length === 0) return undefined;
  const current = links.indexOf(document.activeElement as HTMLElement);
  const next =
    current < 0 ? (delta > 0 ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, current + delta));
  links[next].focus();
  links[next].scrollIntoView?.({ block: 'nearest' });
  return links[next];
}

export function useListKeys({ container, onToggle, onPage }: ListKeysOptions): void {
  useShortcuts({
    j: () => void moveFocus(container.current, 1),
    k: () => void moveFocus(container.current, -1),
    ArrowDown: () =>
      container.current?.contains(document.activeElement) ? void moveFocus(container.current, 1) : false,
    ArrowUp: () =>
      container.current?.contains(document.activeElement) ? void moveFocus(container.current, -1) : false,
    x: () => {
      const id = (document.activeElement as HTMLElement | null)?.dataset.rowId;
      if (!id || !onToggle) return false;
      onToggle(id);
    },
    '[': () => (onPage ? onPage(-1) : false),
    ']': () => (onPage ? onPage(1) : false),
    '/': () => {
      const filter = document.querySelector<HTMLElement>('[data-filter]');
      if (!filter) return false;
      filter.focus();
    },
  });
}
