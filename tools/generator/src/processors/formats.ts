/**
 * Documents with rules of their own (a field's `format`): each is checked during input validation
 * (before anything is rendered) and contributes to the template view.
 */
import type { InputFieldFormat } from '../blueprint/descriptor';
import { parseProcessSpec } from '../process-spec/parse-process-spec';
import { processSpecView } from '../process-spec/process-spec-view';
import { parseBatchHierarchy } from '../batch/batch-hierarchy';
import { batchHierarchyView } from '../batch/batch-hierarchy-view';
import { parseStatesXml, statesXmlView, type StatesDocument } from '../workflow-xml/states-xml';
import {
  parseServiceDependencies,
  serviceDependenciesView,
  type ServiceDependency,
} from '../compose/service-dependencies';

export interface DocumentFormat {
  /** Checks the document; returns it normalised. @throws GeneratorError SPEC_INVALID */
  parse(raw: unknown, source: string): unknown;
  view(parsed: unknown): Record<string, unknown>;
}

export const DOCUMENT_FORMATS: Partial<Record<InputFieldFormat, DocumentFormat>> = {
  processSpec: {
    parse: (raw, source) => parseProcessSpec(raw, source),
    view: (parsed) => processSpecView(parsed as ReturnType<typeof parseProcessSpec>),
  },
  batchHierarchy: {
    parse: (raw, source) => parseBatchHierarchy(raw, source),
    view: (parsed) => batchHierarchyView(parsed as ReturnType<typeof parseBatchHierarchy>),
  },
  serviceDependencies: {
    parse: (raw, source) => parseServiceDependencies(raw, source),
    view: (parsed) => serviceDependenciesView(parsed as ServiceDependency[]),
  },
  statesXml: {
    parse: (raw, source) => parseStatesXml(raw, source),
    view: (parsed) => statesXmlView(parsed as StatesDocument),
  },
};
