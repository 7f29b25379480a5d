import { findState, isEnabledBy, parseConditionRef, referencedActions, referencedConditions } from '../src/index';
import { loadFlowsFile, type FlowDefinition } from '../src/index';
import { processFlowPath } from './support/process-fixture';

describe('flow-definition helpers', () => {
  it('isEnabledBy: only false or "false" disables', () => {
    expect(isEnabledBy(undefined, { x: false })).toBe(true);
    expect(isEnabledBy('x', {})).toBe(true);
    expect(isEnabledBy('x', { x: true })).toBe(true);
    expect(isEnabledBy('x', { x: 'yes' })).toBe(true);
    expect(isEnabledBy('x', { x: false })).toBe(false);
    expect(isEnabledBy('x', { x: ' FALSE ' })).toBe(false);
  });

  it('parseConditionRef handles negation', () => {
    expect(parseConditionRef('leaf')).toEqual({ name: 'leaf', negated: false });
    expect(parseConditionRef(' ! leaf')).toEqual({ name: 'leaf', negated: true });
  });

  it('lists the names a flow needs, for registries', async () => {
    const { flows } = await loadFlowsFile(processFlowPath);
    const flow = flows[0] as FlowDefinition;
    expect(referencedActions(flow)).toEqual([
      'completeSplit',
      'createSubProcesses',
      'emitProcessCompleted',
      'launchWorker',
      'recordChildCompletion',
      'recordErrors',
      'recordOutput',
      'recordProgress',
    ]);
    expect(referencedConditions(flow)).toEqual(['allSubProcessesDone', 'hasErrors', 'leaf']);
    expect(findState(flow, 'EXECUTING')?.kind).toBe('manual');
    expect(findState(flow, 'NOPE')).toBeUndefined();
  });
});
