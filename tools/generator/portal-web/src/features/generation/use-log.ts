/** The page's log: the lines of the operations it followed (generation, tests) and of uploads. */
import { useCallback, useMemo, useState } from 'react';

export interface Log {
  lines: string[];
  append: (line: string) => void;
  clear: () => void;
}

export function useLog(): Log {
  const [lines, setLines] = useState<string[]>([]);
  const append = useCallback((line: string) => setLines((current) => [...current, line]), []);
  const clear = useCallback(() => setLines([]), []);
  return useMemo(() => ({ lines, append, clear }), [lines, append, clear]);
}
