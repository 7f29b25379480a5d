/**
 * How the dashboard may sign in besides a key or a pasted token: `dashboard-config.json`, beside
 * the index (so it follows a path prefix), which the admin server answers from its
 * `FW_ADMIN_OIDC_*` settings. Read when the sign-in form shows; a missing or unreadable file means no single
 * sign-on (a build served elsewhere without it keeps the other two ways).
 *
 * @example
 * const oidc = useOidcSettings();   // undefined while reading, null without single sign-on
 */
import { useEffect, useState } from 'react';
import type { OidcSettings } from './oidc-sign-in';

/** The file's path relative to the dashboard's base. */
export const DASHBOARD_CONFIG_FILE = 'dashboard-config.json';

function isSettings(value: unknown): value is OidcSettings {
  const v = value as Partial<OidcSettings> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.issuer === 'string' &&
    typeof v.clientId === 'string' &&
    typeof v.scope === 'string'
  );
}

async function readOidcSettings(): Promise<OidcSettings | null> {
  try {
    const res = await fetch(new URL(DASHBOARD_CONFIG_FILE, document.baseURI).href, {
      headers: { Accept: 'application/json' },
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { oidc?: unknown };
    return isSettings(body.oidc) ? body.oidc : null;
  } catch {
    return null;
  }
}

/** The identity provider to offer (undefined while reading, null when there is none). */
export function useOidcSettings(): OidcSettings | null | undefined {
  const [settings, setSettings] = useState<OidcSettings | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void readOidcSettings().then((read) => live && setSettings(read));
    return () => {
      live = false;
    };
  }, []);
  return settings;
}
