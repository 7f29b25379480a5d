/** A service's operations: method and path (or in-process only), interceptors, input and output schemas. */
import type { OperationDescription } from '../../api/info-types';
import { SchemaView } from './schema-tree';

export function OperationList({ operations }: { operations: OperationDescription[] }) {
  if (operations.length === 0) return <p className="muted">This service declares no operation.</p>;
  return (
    <ul className="operations">
      {operations.map((op) => (
        <li key={op.name} className="operation">
          <details>
            <summary>
              {op.method ? (
                <span className={`method method-${op.method.toLowerCase()}`}>{op.method}</span>
              ) : (
                <span className="method method-none">in-process</span>
              )}
              <code className="op-path">{op.path ?? op.name}</code>
              <span className="op-name">{op.name}</span>
              {op.description && <span className="op-description">{op.description}</span>}
            </summary>
            <div className="operation-body">
              {op.interceptors.length > 0 && (
                <p>
                  Interceptors:{' '}
                  <span className="chips">
                    {op.interceptors.map((i) => (
                      <span key={i} className="chip">
                        {i}
                      </span>
                    ))}
                  </span>
                </p>
              )}
              <div className="schemas">
                <SchemaView title="Input" schema={op.input} />
                <SchemaView title="Output" schema={op.output} />
              </div>
            </div>
          </details>
        </li>
      ))}
    </ul>
  );
}
