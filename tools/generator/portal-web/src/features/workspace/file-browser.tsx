/** The workspace's files (uploads and the generated project) and the text of the one chosen. */
import { useState } from 'react';
import type { Session } from '../../api/portal-client';
import { ErrorMessage, Loading } from '../../components/query-state';
import { useFile, useTree } from './use-workspace';

export function FileBrowser({ session, generation }: { session: Session | undefined; generation: number }) {
  const tree = useTree(session, generation);
  const [chosen, setChosen] = useState<string>();
  const file = useFile(session, generation, chosen);
  return (
    <section aria-labelledby="files-title">
      <h2 id="files-title">Files</h2>
      {generation === 0 && <p className="hint">Generate a project to see its files.</p>}
      {tree.isLoading && <Loading what="the files" />}
      {tree.error && <ErrorMessage error={tree.error} what="list the files" />}
      {tree.data && (
        <ul id="tree" className="tree" aria-label="Workspace files">
          {tree.data.map((f) => (
            <li key={f}>
              <button type="button" className="link-button" aria-pressed={f === chosen} onClick={() => setChosen(f)}>
                {f}
              </button>
            </li>
          ))}
        </ul>
      )}
      {chosen !== undefined && (
        <>
          <h3 id="file-title">{chosen}</h3>
          {file.isLoading && <Loading what={chosen} />}
          {file.error && <ErrorMessage error={file.error} what={`read ${chosen}`} />}
          {file.data !== undefined && (
            <pre id="file" className="file" aria-labelledby="file-title" tabIndex={0}>
              {file.data}
            </pre>
          )}
        </>
      )}
    </section>
  );
}
