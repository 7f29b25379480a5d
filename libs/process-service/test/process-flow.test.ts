import { makeProcessFlow, PROCESS_FLOW_FILE } from '@fw/process-service';
import { renderMermaid } from '@fw/stm';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

describe('process flow file', () => {
  it('is shipped in the package files', () => {
    expect(existsSync(PROCESS_FLOW_FILE)).toBe(true);
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('flows');
    expect(path.relative(path.join(__dirname, '..'), PROCESS_FLOW_FILE)).toBe(path.join('flows', 'process-flow.xml'));
  });

  it('declares the documented transition table', async () => {
    const flow = await makeProcessFlow();
    const allowed = (stateId: string) =>
      flow.allowedActions({ flowId: 'process-flow', stateId }).map((a) => a.allowedAction);
    expect(flow.definition.initialState).toBe('isThisLeafNode');
    expect(allowed('EXECUTING')).toEqual(['doneSuccessfully', 'doneWithErrors', 'statusUpdate']);
    expect(allowed('SPLIT_PENDING')).toEqual([
      'splitPartiallyDone',
      'splitDone',
      'splitDoneWithErrors',
      'statusUpdate',
    ]);
    expect(allowed('SUB_PROCESSES_PENDING')).toEqual([
      'splitPartiallyDone',
      'splitDone',
      'splitDoneWithErrors',
      'subProcessDoneSuccessfully',
      'subProcessDoneWithErrors',
      'statusUpdate',
    ]);
    expect(allowed('AGGREGATION_PENDING')).toEqual(['aggregationDone', 'aggregationDoneWithErrors', 'statusUpdate']);
    expect(allowed('PROCESSED')).toEqual([]);
    expect(allowed('PROCESSED_WITH_ERRORS')).toEqual([]);
    expect(flow.workerTypeOf('SPLIT_PENDING')).toBe('SPLITTER');
    expect(flow.workerTypeOf('EXECUTING')).toBe('EXECUTOR');
    expect(flow.workerTypeOf('AGGREGATION_PENDING')).toBe('AGGREGATOR');
    expect(flow.workerTypeOf('SUB_PROCESSES_PENDING')).toBeUndefined();
    expect(renderMermaid(flow.definition)).toContain('AGGREGATION_PENDING');
  });

  it('refuses to load a flow that names unknown actions', async () => {
    const dir = path.join(__dirname, 'fixtures');
    await expect(makeProcessFlow({ file: path.join(dir, 'bad-process-flow.xml') })).rejects.toThrow(/launchRocket/);
  });
});
