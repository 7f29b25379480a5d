/**
 * Keyboard shortcuts: `g` then a letter opens a main view, single keys act on the current view.
 * Keys typed into a field are left alone. The help overlay (`?`) lists {@link SHORTCUTS}.
 */
import { useEffect, useRef } from 'react';

export interface Shortcut {
  keys: string;
  what: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: 'g p', what: 'Processes' },
  { keys: 'g e', what: 'Executions (trigger history)' },
  { keys: 'g t', what: 'Trigger a process (manual ProcessCreate)' },
  { keys: 'g c', what: 'Cron schedules' },
  { keys: 'g d', what: 'Definitions' },
  { keys: 'g h', what: 'Health (throughput, backlog, wait)' },
  { keys: 'g a', what: 'Audit trail (admin role)' },
  { keys: 'j / k', what: 'Next / previous row of a list' },
  { keys: 'Enter', what: 'Open the selected row' },
  { keys: 'x', what: 'Expand or fold the selected row (roots only mode)' },
  { keys: '[ / ]', what: 'Previous / next page' },
  { keys: '/', what: 'Focus the first filter' },
  { keys: 'r', what: 'Refresh now' },
  { keys: '.', what: 'Pause or resume the live refresh' },
  { keys: 'Shift+T', what: 'Switch theme (system, light, dark)' },
  { keys: '?', what: 'This help' },
  { keys: 'Esc', what: 'Close the help or a dialog' },
];

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return target.isContentEditable || tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

/**
 * Calls `handlers[key]` for single keys and `handlers['g ' + key]` for the `g` sequences. A
 * handler returning false lets the event through.
 */
export function useShortcuts(handlers: Record<string, () => boolean | void>): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    let pendingG = 0;
    function onKey(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      let name = event.key;
      if (pendingG && Date.now() - pendingG < 1500) {
        pendingG = 0;
        name = `g ${event.key}`;
      } else if (event.key === 'g') {
        pendingG = Date.now();
        return;
      }
      const handler = ref.current[name];
      if (handler && handler() !== false) event.preventDefault();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** Registers `handlers` for list navigation in the view that shows the list (the shell keeps the rest). */
export function useViewShortcuts(handlers: Record<string, () => boolean | void>): void {
  useShortcuts(handlers);
}
