// Every worker of {{application}}, one class per step of each process of the processSpec.
import type { Worker } from '@fw/process-utils';
{{#processes}}
import { {{workerClasses}} } from './processes/{{processType}}';
{{/processes}}

export function allWorkers(): Worker[] {
  return [
{{#processes}}
    {{workerInstances}},
{{/processes}}
  ];
}
