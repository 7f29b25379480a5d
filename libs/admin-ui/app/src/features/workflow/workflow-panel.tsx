/**
 * A workflow service's introspection (`/{svc}/info/…`): its flows, the state diagram, the allowed
 * actions of every state, and the test cases — choosing one marks its path on the diagram.
 */
import { useState } from 'react';
import { infoApi } from '../../api/info-client';
import type { Flow, TestCase } from '../../api/info-types';
import { useInfoQuery } from '../../api/use-info-query';
import { ErrorMessage, Loading } from '../../components/query-state';
import { highlightPath } from './highlight-path';
import { MermaidDiagram } from './mermaid-diagram';
import { TableHead } from '../../components/table-head';

export function WorkflowPanel({ service }: { service: string }) {
  const flows = useInfoQuery(['wf-flows', service], (c) => infoApi.workflowFlows(c, service));
  const [chosen, setChosen] = useState<string | null>(null);
  if (flows.isPending) return <Loading what="the flows" />;
  if (flows.isError) return <ErrorMessage error={flows.error} what={`the flows (/${service}/info)`} />;
  const list = flows.data.flows;
  if (list.length === 0) return <p className="muted">This workflow service declares no flow.</p>;
  const flowId = chosen ?? (list.find((f) => f.default) ?? list[0]).id;
  return (
    <section aria-labelledby="workflow-title" className="panel">
      <h2 id="workflow-title">Workflow</h2>
      {list.length > 1 && (
        <label>
          Flow{' '}
          <select value={flowId} onChange={(e) => setChosen(e.target.value)}>
            {list.map((f) => (
              <option key={f.id} value={f.id}>
                {f.id}
                {f.default ? ' (default)' : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      <FlowView key={flowId} service={service} flowId={flowId} />
    </section>
  );
}

function FlowView({ service, flowId }: { service: string; flowId: string }) {
  const flow = useInfoQuery(['wf-flow', service, flowId], (c) => infoApi.flow(c, service, flowId));
  const diagram = useInfoQuery(['wf-diagram', service, flowId], (c) => infoApi.diagram(c, service, flowId));
  const cases = useInfoQuery(['wf-cases', service, flowId], (c) => infoApi.testCases(c, service, flowId));
  const [selected, setSelected] = useState<number | null>(null);
  if (diagram.isPending || flow.isPending) return <Loading what="the flow" />;
  if (diagram.isError) return <ErrorMessage error={diagram.error} what="the diagram" />;
  if (flow.isError) return <ErrorMessage error={flow.error} what="the flow" />;
  const testCase = selected === null ? undefined : cases.data?.[selected];
  return (
    <div className="flow">
      <h3>
        Flow <code>{flowId}</code>: {flow.data.states.length} states, initial <code>{flow.data.initialState}</code>
      </h3>
      <MermaidDiagram
        text={testCase ? highlightPath(diagram.data, testCase) : diagram.data}
        label={
          testCase ? `State diagram of ${flowId} with the path ${testCase.name} marked` : `State diagram of ${flowId}`
        }
      />
      <div className="flow-columns">
        <TestCases cases={cases.data} error={cases.error} selected={selected} onSelect={setSelected} />
        <AllowedActions service={service} flow={flow.data} />
      </div>
    </div>
  );
}

function TestCases({
  cases,
  error,
  selected,
  onSelect,
}: {
  cases: TestCase[] | undefined;
  error: Parameters<typeof ErrorMessage>[0]['error'] | null;
  selected: number | null;
  onSelect(index: number | null): void;
}) {
  if (error) return <ErrorMessage error={error} what="the test cases" />;
  if (!cases) return <Loading what="the test cases" />;
  return (
    <section aria-labelledby="cases-title">
      <h3 id="cases-title">Test cases ({cases.length})</h3>
      <p className="muted">
        Every path from the initial state to a final state, each loop taken at most once. Choose one to mark it on the
        diagram.
      </p>
      <ol className="test-cases">
        {cases.map((c, i) => (
          <li key={c.name}>
            <button
              type="button"
              className="case-button"
              aria-pressed={selected === i}
              onClick={() => onSelect(selected === i ? null : i)}
            >
              {c.name}
            </button>
            {selected === i && (
              <ol className="steps">
                {c.steps.map((s, n) => (
                  <li key={n}>
                    <code>{s.from}</code> —{s.event}→ <code>{s.to}</code>
                  </li>
                ))}
              </ol>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

function AllowedActions({ service, flow }: { service: string; flow: Flow }) {
  return (
    <section aria-labelledby="actions-title">
      <h3 id="actions-title">Allowed actions per state</h3>
      <table className="actions">
        <TableHead columns={['State', 'Kind', 'Allowed actions']} />
        <tbody>
          {flow.states.map((s) => (
            <StateActions key={s.id} service={service} flowId={flow.id} stateId={s.id} kind={s.kind} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function StateActions({
  service,
  flowId,
  stateId,
  kind,
}: {
  service: string;
  flowId: string;
  stateId: string;
  kind: string;
}) {
  const actions = useInfoQuery(['wf-actions', service, flowId, stateId], (c) =>
    infoApi.allowedActions(c, service, flowId, stateId),
  );
  return (
    <tr>
      <td>
        <code>{stateId}</code>
      </td>
      <td>{kind}</td>
      <td>
        {actions.isPending && '…'}
        {actions.isError && `(${actions.error.message})`}
        {actions.data &&
          (actions.data.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            <span className="chips">
              {actions.data.map((a) => (
                <span
                  key={a.allowedAction}
                  className="chip"
                  title={a.metadata && Object.keys(a.metadata).length > 0 ? JSON.stringify(a.metadata) : undefined}
                >
                  {a.allowedAction}
                  {a.metadata?.activity ? ' (activity)' : ''}
                </span>
              ))}
            </span>
          ))}
      </td>
    </tr>
  );
}
