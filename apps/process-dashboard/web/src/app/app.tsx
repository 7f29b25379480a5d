/**
 * Routes and providers. Every view lives under `/t/<tenant>/…`; without a credential the view's URL
 * is kept and the sign-in form shown in its place, so a deep link survives a reload.
 */
import { QueryCache, QueryClient, QueryClientProvider, MutationCache } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, Navigate, Outlet, Route, Routes, useLocation, useNavigate, useParams } from 'react-router';
import { isApiError, type Credential } from '../api/client';
import type { Caller } from '../api/types';
import { AuditView } from '../features/audit/audit-view';
import { CronEditView } from '../features/cron/cron-edit-view';
import { CronListView } from '../features/cron/cron-list-view';
import { DefinitionEditView } from '../features/definitions/definition-edit-view';
import { DefinitionsView } from '../features/definitions/definitions-view';
import { HealthView } from '../features/health/health-view';
import { ProcessDetailView } from '../features/processes/process-detail-view';
import { ProcessesView } from '../features/processes/processes-view';
import { OidcCallbackView } from '../features/session/oidc-callback-view';
import { OIDC_CALLBACK_PATH } from '../features/session/oidc-sign-in';
import { usePermissions } from '../features/session/permissions';
import { ApiProvider, SessionProvider, TENANT_PATTERN, useSession } from '../features/session/session';
import { SignInForm } from '../features/session/sign-in-form';
import { TraceView } from '../features/trace/trace-view';
import { ExecutionsView } from '../features/triggers/executions-view';
import { ManualTriggerView } from '../features/triggers/manual-trigger-view';
import { Layout } from './layout';
import { switchTenantPath, tenantPath } from './paths';
import { PreferencesProvider } from './preferences';

const REFUSED =
  'The server refused the key or token (401): it may have expired, or the server was restarted with another key. Sign in again.';

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
        queries: {
          retry: (count, error) => !(isApiError(error) && error.status < 500) && count < 2,
          refetchOnWindowFocus: false,
          staleTime: 2_000,
        },
      },
    });
    return created;
  });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

function Landing() {
  const navigate = useNavigate();
  const { credential } = useSession();
  const { tenants } = usePermissions();
  if (credential)
    return <Navigate to={tenantPath(tenants === '*' || tenants.length === 0 ? 'demo' : tenants[0])} replace />;
  return <SignInForm initialTenant="demo" onSignedIn={(tenant) => navigate(tenantPath(tenant))} />;
}

function TenantShell() {
  const { tenant = '' } = useParams();
  const { credential } = useSession();
  const { mayOpen, tenants } = usePermissions();
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
  if (!credential) {
    return (
      <SignInForm
        initialTenant={tenant}
        onSignedIn={(t) => t !== tenant && navigate(switchTenantPath(location.pathname, location.search, t))}
      />
    );
  }
  if (!mayOpen(tenant)) {
    return (
      <main id="main" className="signin">
        <h1>Not your tenant</h1>
        <p className="error">You may not open “{tenant}”.</p>
        <ul>
          {(tenants === '*' ? [] : tenants).map((t) => (
            <li key={t}>
              <Link to={tenantPath(t)}>Open {t}</Link>
            </li>
          ))}
        </ul>
      </main>
    );
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
      <Route path={`/${OIDC_CALLBACK_PATH}`} element={<OidcCallbackView />} />
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
        <Route path="health" element={<HealthView />} />
        <Route path="audit" element={<AuditView />} />
        <Route path="*" element={<NotFound />} />
      </Route>
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

export interface AppProps {
  /** A session to start with (tests); the app itself always starts signed out. */
  initialSession?: { credential: Credential; caller: Caller };
}

/** Everything but the router (tests wrap it in a MemoryRouter, main.tsx in a BrowserRouter). */
export function App({ initialSession }: AppProps) {
  return (
    <PreferencesProvider>
      <SessionProvider initialCredential={initialSession?.credential} initialCaller={initialSession?.caller}>
        <QueryLayer>
          <AppRoutes />
        </QueryLayer>
      </SessionProvider>
    </PreferencesProvider>
  );
}
