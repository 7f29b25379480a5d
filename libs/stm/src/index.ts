/**
 * @fw/stm — a general state machine: flows declared as data (XML or code), async actions and
 * conditions registered by name, config enablement, Mermaid rendering. See README.md.
 */
export {
  isEnabledBy,
  parseConditionRef,
  findState,
  referencedActions,
  referencedConditions,
} from './model/flow-definition';
export type {
  StmState,
  StateKind,
  Metadata,
  EventDefinition,
  ConditionalTransition,
  StateDefinition,
  FlowDefinition,
  StmConfig,
} from './model/flow-definition';
export { applyConfig } from './model/flow-enablement';
export { StmError, StmErrorCodes, isStmError } from './errors/stm-error';
export type { StmErrorCode, StmErrorInit, FlowIssue } from './errors/stm-error';
export { validateFlow, validateFlows, assertValidFlows, invalidFlowError } from './validation/flow-validator';
export type { FlowValidation, ValidateFlowOptions, AssertFlowsOptions } from './validation/flow-validator';
export { defineFlow } from './builder/flow-builder';
export type { FlowBuilder, StateBuilder, TransitionOptions } from './builder/flow-builder';
export { parseFlowsXml, loadFlowsFile, checkFlowsXml } from './xml/xml-flow-parser';
export type { ParsedFlows, ParseFlowsOptions, CheckedFlowsXml } from './xml/xml-flow-parser';
export type { XmlElement, XmlAttribute } from './xml/xml-reader';
export { makeStateMachine } from './runtime/state-machine';
export { stateFieldAccessor } from './runtime/state-accessor';
export type { StateAccessor, StatefulEntity } from './runtime/state-accessor';
export type {
  ActionPhase,
  ActionArgs,
  StmAction,
  ConditionArgs,
  StmCondition,
  StateMachineOptions,
  ExecutedAction,
  StmStep,
  StmResult,
  AllowedEvent,
  StartOptions,
  StateMachine,
} from './runtime/machine-types';
export { renderMermaid } from './render/mermaid-renderer';
export type { MermaidOptions } from './render/mermaid-renderer';
