/**
 * What an update does to each file, decided from three trees: base (the pristine render recorded at
 * the last generation or update), ours (the project as it is) and theirs (the new render). The
 * rules are those of a three-way merge: a side that did not change a file yields to the side that
 * did; both changing it is merged line by line (`git merge-file`), conflicts marked inline. Nothing
 * is written here: the plan is the list of writes and deletions that apply.ts carries out.
 */
import { isText, sameFile, type Tree, type TreeFile } from './tree';
import type { MergePort } from './git';

export type UpdateStatus = 'unchanged' | 'merged' | 'conflicted' | 'added' | 'deleted';

export interface FileOutcome {
  path: string;
  status: UpdateStatus;
  /** Why, when the status alone does not say it (deleted by you, binary, kept…). */
  note?: string;
}

/** A file to write (`file`) or to delete (no `file`). */
export interface Change {
  path: string;
  file?: TreeFile;
}

export interface UpdatePlan {
  outcomes: FileOutcome[];
  changes: Change[];
}

export interface PlanInput {
  base: Tree;
  ours: Tree;
  theirs: Tree;
  merge: MergePort;
  /** `my-blueprint 0.1.0` and `my-blueprint 0.2.0`: how conflict markers name the two renders. */
  oldLabel: string;
  newLabel: string;
}

/** Where the blueprint's version of a binary file goes when both sides changed it. */
export const SIDE_FILE_SUFFIX = '.fw-gen-new';

interface Decision {
  outcome: Omit<FileOutcome, 'path'>;
  changes: Change[];
}

const keep = (status: UpdateStatus, note?: string): Decision => ({
  outcome: note ? { status, note } : { status },
  changes: [],
});

function mergeBoth(
  p: string,
  input: PlanInput,
  base: TreeFile | undefined,
  ours: TreeFile,
  theirs: TreeFile,
): Decision {
  const texts = [base, ours, theirs].every((f) => f === undefined || isText(p, f.bytes));
  if (!texts) {
    return {
      outcome: {
        status: 'conflicted',
        note: `binary file changed by you and by the blueprint: yours kept, the blueprint's written to ${p}${SIDE_FILE_SUFFIX}`,
      },
      changes: [{ path: `${p}${SIDE_FILE_SUFFIX}`, file: theirs }],
    };
  }
  const labels = { ours: `${p} (yours)`, base: `${p} (${input.oldLabel})`, theirs: `${p} (${input.newLabel})` };
  const result = input.merge.merge(base?.bytes ?? Buffer.alloc(0), ours.bytes, theirs.bytes, labels);
  // A mode change comes from whichever side made it, as a content change does.
  const executable = base !== undefined && theirs.executable !== base.executable ? theirs.executable : ours.executable;
  const changes =
    result.text.equals(ours.bytes) && executable === ours.executable
      ? []
      : [{ path: p, file: { bytes: result.text, executable } }];
  if (result.conflicts > 0)
    return {
      outcome: {
        status: 'conflicted',
        note: `${result.conflicts} conflict${result.conflicts > 1 ? 's' : ''} marked inline`,
      },
      changes,
    };
  return { outcome: { status: changes.length > 0 ? 'merged' : 'unchanged' }, changes };
}

function decide(p: string, input: PlanInput): Decision {
  const base = input.base.get(p);
  const ours = input.ours.get(p);
  const theirs = input.theirs.get(p);
  if (theirs === undefined) {
    // Removed from the blueprint: deleted unless you changed it.
    if (ours === undefined) return keep('unchanged', 'removed from the blueprint and already gone');
    if (sameFile(ours, base)) return { outcome: { status: 'deleted' }, changes: [{ path: p }] };
    return keep('conflicted', 'removed from the blueprint but changed by you: yours kept');
  }
  if (base !== undefined && sameFile(base, theirs)) return keep('unchanged'); // the blueprint did not change it: yours stays, edited or deleted
  if (ours === undefined) {
    if (base === undefined) return { outcome: { status: 'added' }, changes: [{ path: p, file: theirs }] };
    // Git leaves the changed side of a modify/delete conflict in the tree; so does update.
    return {
      outcome: {
        status: 'conflicted',
        note: "deleted by you, changed by the blueprint: the blueprint's version written",
      },
      changes: [{ path: p, file: theirs }],
    };
  }
  if (sameFile(ours, theirs)) return keep('unchanged');
  if (base !== undefined && sameFile(ours, base))
    return { outcome: { status: 'merged' }, changes: [{ path: p, file: theirs }] };
  return mergeBoth(p, input, base, ours, theirs);
}

export function planUpdate(input: PlanInput): UpdatePlan {
  const paths = [...new Set([...input.base.keys(), ...input.theirs.keys()])].sort();
  const outcomes: FileOutcome[] = [];
  const changes: Change[] = [];
  for (const p of paths) {
    const d = decide(p, input);
    outcomes.push({ path: p, ...d.outcome });
    changes.push(...d.changes);
  }
  return { outcomes, changes };
}

export interface Drift {
  path: string;
  reason: string;
}

/**
 * `--check`: where the project differs from what its answers generate with the current blueprint.
 * Files the blueprint never generated are the user's own and are not drift.
 */
export function driftOf(base: Tree, ours: Tree, theirs: Tree): Drift[] {
  const drift: Drift[] = [];
  for (const p of [...new Set([...base.keys(), ...theirs.keys()])].sort()) {
    const o = ours.get(p);
    const t = theirs.get(p);
    if (t === undefined) {
      if (o !== undefined) drift.push({ path: p, reason: 'removed from the blueprint, still in the project' });
    } else if (o === undefined)
      drift.push({ path: p, reason: base.has(p) ? 'missing' : 'new in the blueprint, missing' });
    else if (!sameFile(o, t)) drift.push({ path: p, reason: 'differs' });
  }
  return drift;
}
