/**
 * The portal page: the blueprint and its prompts on the side (with Generate, Run tests and
 * Download zip), the streamed log and the workspace's files in the main part.
 */
import { useState } from 'react';
import type { InputField } from './api/portal-client';
import { useSession } from './api/use-session';
import { ErrorMessage, Loading } from './components/query-state';
import { BlueprintPicker } from './features/blueprints/blueprint-picker';
import { PromptForm } from './features/blueprints/prompt-form';
import { answersOf, initialValues, type PromptValue, type PromptValues } from './features/blueprints/prompt-values';
import { useGenerators } from './features/blueprints/use-generators';
import { useUpload } from './features/blueprints/use-upload';
import { GenerateButton } from './features/generation/generate-button';
import { LogView } from './features/generation/log-view';
import { useLog } from './features/generation/use-log';
import { FileBrowser } from './features/workspace/file-browser';
import { WorkspaceActions } from './features/workspace/workspace-actions';

export function App() {
  const session = useSession();
  const generators = useGenerators();
  const log = useLog();
  const upload = useUpload(session.data);
  const [blueprint, setBlueprint] = useState<string>();
  // Each blueprint keeps its own values while another is looked at.
  const [valuesOf, setValuesOf] = useState<Record<string, PromptValues>>({});
  // Successful generations so far: the workspace's tree and files are read anew after each.
  const [generation, setGeneration] = useState(0);

  const chosen = generators.data?.find((g) => g.name === blueprint) ?? generators.data?.[0];
  const values = chosen ? (valuesOf[chosen.name] ?? initialValues(chosen.inputFields)) : {};
  const setValue = (name: string, value: PromptValue) => {
    if (chosen) setValuesOf((all) => ({ ...all, [chosen.name]: { ...values, [name]: value } }));
  };
  const onUpload = (field: InputField, file: File) => {
    upload.mutate(file, {
      onSuccess: (u) => {
        setValue(field.name, u.name);
        log.append(`uploaded ${u.path} (${u.bytes} bytes)`);
      },
      onError: (e) => log.append(`upload refused: ${e.message}`),
    });
  };

  return (
    <div className="layout">
      <aside className="setup" aria-label="Blueprint and prompts">
        <h1>fw-gen portal</h1>
        {session.error && <ErrorMessage error={session.error} what="start a session" />}
        {generators.isLoading && <Loading what="the blueprints" />}
        {generators.error && <ErrorMessage error={generators.error} what="list the blueprints" />}
        {chosen && generators.data && (
          <>
            <BlueprintPicker generators={generators.data} value={chosen.name} onChange={setBlueprint} />
            <PromptForm
              fields={chosen.inputFields}
              values={values}
              onChange={setValue}
              onUpload={onUpload}
              disabled={!session.data}
            />
            <div className="actions">
              <GenerateButton
                session={session.data}
                blueprint={chosen.name}
                answers={answersOf(chosen.inputFields, values)}
                log={log}
                disabled={upload.isPending}
                onEnd={(end) => end.status === 'succeeded' && setGeneration((n) => n + 1)}
              />
              <WorkspaceActions session={session.data} ready={generation > 0} log={log} />
            </div>
          </>
        )}
      </aside>
      <main>
        <LogView lines={log.lines} />
        <FileBrowser key={generation} session={session.data} generation={generation} />
      </main>
    </div>
  );
}
