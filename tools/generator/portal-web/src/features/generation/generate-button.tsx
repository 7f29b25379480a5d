/** Generates the chosen blueprint with the answers into the workspace's `project/` (replacing it). */
import { portalApi, type OperationEnd, type Session } from '../../api/portal-client';
import type { Log } from './use-log';
import { useOperation } from './use-operation';

export function GenerateButton({
  session,
  blueprint,
  answers,
  log,
  onEnd,
  disabled,
}: {
  session: Session | undefined;
  blueprint: string;
  answers: Record<string, unknown>;
  log: Log;
  onEnd: (end: OperationEnd) => void;
  disabled?: boolean;
}) {
  const generation = useOperation(
    'generation',
    session,
    (s) => portalApi.startGeneration(s, { blueprint, answers, force: true }),
    log,
    onEnd,
  );
  return (
    <button
      type="button"
      disabled={disabled || !session || generation.isPending}
      onClick={() => {
        log.clear();
        generation.mutate();
      }}
    >
      {generation.isPending ? 'Generating…' : 'Generate'}
    </button>
  );
}
