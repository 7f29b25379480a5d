/**
 * Graph rules of a processSpec: unique names, references that resolve, one parent per child, no
 * cycle through children or through predecessors (the message names the cycle), and the file
 * implementations' shapes.
 */
import type { ProcessSpecProcess } from './process-spec';

function findCycle(nodes: readonly string[], next: (node: string) => readonly string[]): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    stack.push(node);
    for (const n of next(node)) {
      if (state.get(n) === 'open') return [...stack.slice(stack.indexOf(n)), n];
      if (!state.has(n)) {
        const found = visit(n);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of nodes) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return undefined;
}

function checkNames(processes: readonly ProcessSpecProcess[], problems: string[]): void {
  const types = new Map<string, number>();
  const inputs = new Map<string, number>();
  processes.forEach((p, i) => {
    if (types.has(p.processType))
      problems.push(
        `processes[${i}].processType: '${p.processType}' is already the type of processes[${types.get(p.processType)}]`,
      );
    else types.set(p.processType, i);
    if (inputs.has(p.inputType))
      problems.push(
        `processes[${i}].inputType: '${p.inputType}' is already the input type of processes[${inputs.get(p.inputType)}]`,
      );
    else inputs.set(p.inputType, i);
  });
}

function checkReferences(processes: readonly ProcessSpecProcess[], problems: string[]): void {
  const known = new Set(processes.map((p) => p.processType));
  const parentOf = new Map<string, string>();
  processes.forEach((p, i) => {
    p.children.forEach((child, j) => {
      if (!known.has(child))
        problems.push(`processes[${i}].children[${j}]: '${child}' is not a process of this spec (dangling reference)`);
      else if (parentOf.has(child))
        problems.push(
          `processes[${i}].children[${j}]: '${child}' already has the parent '${parentOf.get(child)}' (a process has one parent)`,
        );
      else parentOf.set(child, p.processType);
    });
    const pred = p.predecessorProcessType;
    if (pred !== undefined && !known.has(pred))
      problems.push(
        `processes[${i}].predecessorProcessType: '${pred}' is not a process of this spec (dangling reference)`,
      );
    if (p.predecessorArgs !== undefined && pred === undefined)
      problems.push(`processes[${i}].predecessorArgs: given without predecessorProcessType`);
  });
  processes.forEach((p, i) => {
    if (p.predecessorProcessType !== undefined && parentOf.has(p.processType)) {
      problems.push(
        `processes[${i}].predecessorProcessType: '${p.processType}' is a child of '${parentOf.get(p.processType)}'; only a root process can be started by a predecessor`,
      );
    }
  });
}

function checkCycles(processes: readonly ProcessSpecProcess[], problems: string[]): void {
  const byType = new Map(processes.map((p) => [p.processType, p]));
  const names = processes.map((p) => p.processType);
  const childCycle = findCycle(names, (n) => (byType.get(n)?.children ?? []).filter((c) => byType.has(c)));
  if (childCycle) problems.push(`cycle in children: ${childCycle.join(' → ')}`);
  const predCycle = findCycle(names, (n) => {
    const pred = byType.get(n)?.predecessorProcessType;
    return pred !== undefined && byType.has(pred) ? [pred] : [];
  });
  if (predCycle) problems.push(`cycle in predecessors: ${predCycle.reverse().join(' → ')}`);
}

function checkImplementations(processes: readonly ProcessSpecProcess[], problems: string[]): void {
  const byType = new Map(processes.map((p) => [p.processType, p]));
  processes.forEach((p, i) => {
    const at = `processes[${i}]`;
    if (p.implementation === 'custom') return;
    if (p.fields.path !== 'string')
      problems.push(
        `${at}.fields.path: a ${p.implementation} process needs the field path of type string (the file it reads)`,
      );
    if (p.implementation === 'fileRead' && p.children.length > 0)
      problems.push(`${at}.children: a fileRead process is a leaf (it reads one byte range); give it no children`);
    if (p.implementation === 'fileSplit') {
      const chunk = p.config.chunkBytes;
      if (chunk !== undefined && !/^[1-9][0-9]{0,9}$/.test(chunk))
        problems.push(`${at}.config.chunkBytes: '${chunk}' is not a positive whole number of bytes`);
      const child = p.children.length === 1 ? byType.get(p.children[0]) : undefined;
      if (!child || child.implementation !== 'fileRead')
        problems.push(
          `${at}.children: a fileSplit process needs exactly one child, of implementation fileRead (it reads each chunk)`,
        );
      // The splitter hands each chunk the fields its child declares, taken from its own input.
      for (const [name, type] of Object.entries(child?.fields ?? {})) {
        if (p.fields[name] !== type)
          problems.push(
            `${at}.fields: the fileRead child '${child?.processType}' declares ${name}: ${type}, so this fileSplit process needs the same field to hand on`,
          );
      }
    }
  });
}

/** Appends the graph problems of already shape-checked processes. */
export function checkGraph(processes: readonly ProcessSpecProcess[], problems: string[]): void {
  if (processes.length === 0) problems.push('processes: give at least one process');
  checkNames(processes, problems);
  checkReferences(processes, problems);
  checkCycles(processes, problems);
  checkImplementations(processes, problems);
}
