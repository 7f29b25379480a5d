/**
 * The frame of a signed-in tenant: navigation (only the views the caller's role allows), the
 * caller, tenant switch (only the caller's tenants), theme, sign-out, help; the global shortcuts
 * (`g` + letter, `?`, `.`, `r`, Shift+T).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { NavLink, useLocation, useNavigate } from 'react-router';
import { HelpOverlay } from '../components/help-overlay';
import { usePermissions, type Permissions } from '../features/session/permissions';
import { TENANT_PATTERN, useSession } from '../features/session/session';
import { switchTenantPath, tenantPath } from './paths';
import { usePreferences } from './preferences';
import { useShortcuts } from './shortcuts';

/** The views; `needs` names the operation a view is for (shown only when the role allows it). */
const NAV: ReadonlyArray<{ to: string; label: string; key: string; needs?: string }> = [
  { to: 'processes', label: 'Processes', key: 'p' },
  { to: 'executions', label: 'Executions', key: 'e' },
  { to: 'trigger', label: 'Trigger', key: 't', needs: 'trigger' },
  { to: 'cron', label: 'Cron', key: 'c' },
  { to: 'definitions', label: 'Definitions', key: 'd' },
  { to: 'health', label: 'Health', key: 'h', needs: 'health' },
  { to: 'audit', label: 'Audit', key: 'a', needs: 'listAudit' },
];

/** A list of the caller's tenants when it may not open any other; else a text field. */
function TenantPicker({ tenant, tenants }: { tenant: string; tenants: readonly string[] }) {
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <div className="tenant-switch">
      <label htmlFor="tenant-switch">Tenant</label>
      <select
        id="tenant-switch"
        value={tenant}
        onChange={(e) => navigate(switchTenantPath(location.pathname, location.search, e.target.value))}
      >
        {tenants.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    </div>
  );
}

function CallerBadge({ permissions }: { permissions: Permissions }) {
  const { caller } = useSession();
  if (!caller) return null;
  return (
    <span
      className="caller muted"
      title={`Signed in with ${caller.credential === 'key' ? 'an administration key' : 'a bearer token'}; tenants: ${permissions.tenants === '*' ? 'all' : permissions.tenants.join(', ')}`}
    >
      {caller.actor} · {caller.role ?? 'no role'}
    </span>
  );
}

function TenantSwitch({ tenant }: { tenant: string }) {
  const [value, setValue] = useState(tenant);
  const [error, setError] = useState<string | undefined>();
  const navigate = useNavigate();
  const location = useLocation();
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!TENANT_PATTERN.test(value)) {
      setError('1 to 128 letters, digits, . _ -');
      return;
    }
    setError(undefined);
    if (value !== tenant) void navigate(switchTenantPath(location.pathname, location.search, value));
  }
  return (
    <form className="tenant-switch" onSubmit={submit} key={tenant}>
      <label htmlFor="tenant-switch">Tenant</label>
      <input
        id="tenant-switch"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        size={12}
        spellCheck={false}
        aria-invalid={error !== undefined}
        aria-describedby={error ? 'tenant-switch-error' : undefined}
      />
      <button type="submit">Switch</button>
      {error && (
        <span id="tenant-switch-error" className="error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

export function Layout({ tenant, children }: { tenant: string; children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { signOut } = useSession();
  const permissions = usePermissions();
  const nav = NAV.filter((item) => item.needs === undefined || permissions.can(item.needs));
  const { theme, cycleTheme, paused, setPaused } = usePreferences();
  const [help, setHelp] = useState(false);
  const shortcuts: Record<string, () => boolean | void> = {
    '?': () => setHelp((h) => !h),
    T: cycleTheme,
    '.': () => setPaused(!paused),
    r: () => void queryClient.refetchQueries({ type: 'active' }),
  };
  for (const item of nav) shortcuts[`g ${item.key}`] = () => void navigate(tenantPath(tenant, item.to));
  useShortcuts(shortcuts);

  return (
    <div className="app">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Process dashboard</span>
        <nav aria-label="Main">
          <ul>
            {nav.map((item) => (
              <li key={item.to}>
                <NavLink to={tenantPath(tenant, item.to)} title={`g ${item.key}`}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="topbar-tools">
          <CallerBadge permissions={permissions} />
          {permissions.tenants === '*' ? (
            <TenantSwitch tenant={tenant} />
          ) : (
            <TenantPicker tenant={tenant} tenants={permissions.tenants} />
          )}
          <button type="button" onClick={cycleTheme} aria-label={`Theme: ${theme} (switch)`} title="Shift+T">
            Theme: {theme}
          </button>
          <button type="button" onClick={() => setHelp(true)} aria-label="Keyboard shortcuts" title="?">
            ?
          </button>
          <button
            type="button"
            onClick={() => {
              queryClient.clear();
              signOut();
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      {help && <HelpOverlay onClose={() => setHelp(false)} />}
    </div>
  );
}
