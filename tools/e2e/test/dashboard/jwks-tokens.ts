/**
 * Bearer tokens for the dashboard suites: an ES256 key pair made for the suite, its public key in
 * a JWKS file the dev admin server reads (`env`), and a signer of tokens carrying fw roles and
 * tenants, issued and addressed as that server expects.
 *
 * @example
 * const tokens = await makeJwksTokens('removal');
 * const host = await startDevAdminServer(tokens.env);
 * const token = await tokens.sign('otto', ['operator'], ['demo']);
 * tokens.dispose();
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadJose } from '../../src/jose-import';

const ISSUER = 'https://idp.e2e.test/';
const AUDIENCE = 'fw-dashboard-e2e';
const KID = 'e2e';

export interface JwksTokens {
  /** The admin server's settings that make it verify these tokens. */
  readonly env: Record<string, string>;
  /** A token of `sub` with `roles` in `tenants`, valid for 30 minutes. */
  sign(sub: string, roles: string[], tenants: string[]): Promise<string>;
  /** Removes the JWKS file and its folder. */
  dispose(): void;
}

/** A key pair and its JWKS file in a new temporary folder named after `suite`. */
export async function makeJwksTokens(suite: string): Promise<JwksTokens> {
  const jose = await loadJose();
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256');
  const dir = mkdtempSync(path.join(tmpdir(), `fw-e2e-${suite}-`));
  const jwksFile = path.join(dir, 'jwks.json');
  writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...(await jose.exportJWK(publicKey)), kid: KID, alg: 'ES256' }] }));
  return {
    env: {
      PROCESS_MANAGEMENT_JWKS_FILE: jwksFile,
      PROCESS_MANAGEMENT_JWT_ISSUER: ISSUER,
      PROCESS_MANAGEMENT_JWT_AUDIENCE: AUDIENCE,
    },
    sign: (sub, roles, tenants) =>
      new jose.SignJWT({ fw_roles: roles, fw_tenants: tenants })
        .setProtectedHeader({ alg: 'ES256', kid: KID })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(sub)
        .setExpirationTime('30m')
        .sign(privateKey),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
