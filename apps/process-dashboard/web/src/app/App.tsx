/**
 * Routes and providers. Every view lives under `/t/<tenant>/…`; without a key the view's URL is
 * kept and the sign-in form shown in its place, so a deep link survives a reload.
 */
import { QueryCache, QueryClient, QueryClientProvider, MutationCache } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation, useNavigate, useParams } from 'react-router';
import { isApiError } from '../api/client';
import { CronEditView } from '../features/cron/CronEditView';
import { CronListView } from '../features/cron/CronListView';
import { DefinitionEditView } from '../features/definitions/DefinitionEditView';
import { DefinitionsView } from '../features/definitions/DefinitionsView';
import { ProcessDetailView } from '../features/processes/ProcessDetailView';
import { ProcessesView } from '../features/processes/ProcessesView';
import { ApiProvider, SessionProvider, TENANT_PATTERN, useSession } from '../features/session/session';
import { SignInForm } from '../features/session/SignInForm';
import { TraceView } from '../features/trace/TraceView';
import { ExecutionsView } from '../features/triggers/ExecutionsView';
import { ManualTriggerView } from '../features/triggers/ManualTriggerView';
import { Layout } from './Layout';
import { switchTenantPath, tenantPath } from './paths';
import { PreferencesProvider } from './preferences';

const REFUSED = 'The server refused the key (401): it may have been restarted with another key. Enter the key again.';

/** The query client: no retries of 4xx answers; a 401 anywhere ends the session. */
function QueryLayer({ children }: { children: ReactNode }) {
  const { signOut } = useSession();
  const signOutRef = useRef(signOut);
  signOutRef.current = signOut;
  const [client] = useState(() => {
    const on401 = (error: unknown) => {
      if (isApiError(error) && error.status === 401) {
        client.clear();
        signOutRef.current(REFUSED);
      }
    };
    const created: QueryClient = new QueryClient({
      queryCache: new QueryCache({ onError: on401 }),
      mutationCache: new MutationCache({ onError: on401 }),
      defaultOptions: {
        queries: { retry: (count, error) => !(isApiError(error) && error.status < 500) && count < 2, refetchOnWindowFocus: false, staleTime: 2_000 },
      },
    });
    return created;
  });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

function Landing() {
  const navigate = useNavigate();
  const { key } = useSession();
  if (key) return <Navigate to={tenantPath('demo')} replace />;
  return <SignInForm initialTenant="demo" onSignedIn={(tenant) => navigate(tenantPath(tenant))} />;
}

function TenantShell() {
  const { tenant = '' } = useParams();
  const { key } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    document.title = `${tenant} · Process dashboard`;
  }, [tenant]);
  if (!TENANT_PATTERN.test(tenant)) {
    return (
      <main id="main" className="signin">
        <h1>Unknown tenant</h1>
        <p className="error">“{tenant}” is not a tenant id (1 to 128 letters, digits, dots, dashes or underscores).</p>
        <a href="./">Back to the start</a>
      </main>
    );
  }
  if (!key) {
    return <SignInForm initialTenant={tenant} onSignedIn={(t) => t !== tenant && navigate(switchTenantPath(location.pathname, location.search, t))} />;
  }
  return (
    <ApiProvider tenant={tenant}>
      <Layout tenant={tenant}>
        <Outlet />
      </Layout>
    </ApiProvider>
  );
}

function NotFound() {
  return (
    <main id="main" className="signin">
      <h1>No such page</h1>
      <p>
        <a href="./">Open the dashboard</a>
      </p>
    </main>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Landing />} />
      <Route path="/t/:tenant" element={<TenantShell />}>
        <Route index element={<Navigate to="processes" replace />} />
        <Route path="processes" element={<ProcessesView />} />
        <Route path="processes/:id" element={<ProcessDetailView />} />
        <Route path="trace" element={<TraceView />} />
        <Route path="executions" element={<ExecutionsView />} />
        <Route path="trigger" element={<ManualTriggerView />} />
        <Route path="cron" element={<CronListView />} />
        <Route path="cron/new" element={<CronEditView />} />
        <Route path="cron/:id" element={<CronEditView />} />
        <Route path="definitions" element={<DefinitionsView />} />
        <Route path="definitions/new" element={<DefinitionEditView />} />
        <Route path="definitions/:name" element={<DefinitionEditView />} />
        <Route path="*" element={<NotFound />} />
      </Route>
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

/** Everything but the router (tests wrap it in a MemoryRouter, main.tsx in a BrowserRouter). */
export function App({ initialKey }: { initialKey?: string }) {
  return (
    <PreferencesProvider>
      <SessionProvider initialKey={initialKey}>
        <QueryLayer>
          <AppRoutes />
        </QueryLayer>
      </SessionProvider>
    </PreferencesProvider>
  );
}
