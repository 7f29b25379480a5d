/**
 * A real JWKS server for the tests: a local HTTP server serving the public keys of the current
 * rotation, counting its fetches, and a signer of tokens with any of those keys (or with keys it
 * does not publish, with `alg: none`, or HMAC-signed with a public key).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadJose, type Jose } from '../../src/access/jose-loader';

export const ISSUER = 'https://idp.test/';
export const AUDIENCE = 'fw-admin';

export interface SigningKey {
  kid: string;
  privateKey: Awaited<ReturnType<Jose['generateKeyPair']>>['privateKey'];
  publicJwk: Record<string, unknown>;
  publicPem: string;
}

export interface TokenClaims {
  sub?: string;
  fw_roles?: unknown;
  fw_tenants?: unknown;
  iss?: string;
  aud?: string;
  /** Seconds from now (negative: in the past). */
  expiresIn?: number;
  notBeforeIn?: number;
}

export interface JwksServer {
  url: string;
  /** How often the key set was fetched. */
  fetches(): number;
  /** Publishes exactly these keys from now on. */
  publish(keys: readonly SigningKey[]): void;
  close(): Promise<void>;
}

export async function jose(): Promise<Jose> {
  return loadJose();
}

export async function makeSigningKey(kid: string, alg: 'RS256' | 'ES256' = 'RS256'): Promise<SigningKey> {
  const j = await jose();
  const { privateKey, publicKey } = await j.generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await j.exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, privateKey, publicJwk, publicPem: await j.exportSPKI(publicKey) };
}

export async function startJwksServer(initial: readonly SigningKey[]): Promise<JwksServer> {
  let published = [...initial];
  let fetches = 0;
  const server: Server = createServer((_req, res) => {
    fetches += 1;
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ keys: published.map((k) => k.publicJwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    fetches: () => fetches,
    publish: (keys) => void (published = [...keys]),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function epoch(offsetSeconds: number): number {
  return Math.floor(Date.now() / 1000) + offsetSeconds;
}

/** A token signed with `key` (RS256/ES256 as the key was made). */
export async function signToken(key: SigningKey, claims: TokenClaims = {}): Promise<string> {
  const j = await jose();
  const payload: Record<string, unknown> = {};
  if (claims.fw_roles !== undefined) payload.fw_roles = claims.fw_roles;
  if (claims.fw_tenants !== undefined) payload.fw_tenants = claims.fw_tenants;
  let jwt = new j.SignJWT(payload)
    .setProtectedHeader({ alg: String(key.publicJwk.alg), kid: key.kid, typ: 'JWT' })
    .setIssuer(claims.iss ?? ISSUER)
    .setAudience(claims.aud ?? AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(epoch(claims.expiresIn ?? 300));
  if (claims.sub !== '') jwt = jwt.setSubject(claims.sub ?? 'alice');
  if (claims.notBeforeIn !== undefined) jwt = jwt.setNotBefore(epoch(claims.notBeforeIn));
  return jwt.sign(key.privateKey);
}

function b64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

function claimsOf(claims: TokenClaims): Record<string, unknown> {
  return {
    sub: claims.sub ?? 'mallory',
    iss: ISSUER,
    aud: AUDIENCE,
    exp: epoch(300),
    iat: epoch(0),
    fw_roles: claims.fw_roles ?? ['admin'],
    fw_tenants: claims.fw_tenants ?? ['*'],
  };
}

/** An unsecured token (`alg: none`, empty signature). */
export function unsignedToken(kid: string, claims: TokenClaims = {}): string {
  return `${b64url(JSON.stringify({ alg: 'none', kid, typ: 'JWT' }))}.${b64url(JSON.stringify(claimsOf(claims)))}.`;
}

/** HS256 with the published public key (PEM) as the HMAC secret: the algorithm-confusion attack. */
export async function hmacWithPublicKey(key: SigningKey, claims: TokenClaims = {}): Promise<string> {
  const j = await jose();
  return new j.SignJWT(claimsOf(claims))
    .setProtectedHeader({ alg: 'HS256', kid: key.kid, typ: 'JWT' })
    .sign(new TextEncoder().encode(key.publicPem));
}

/** The token with its signature replaced by another token's. */
export function withForeignSignature(token: string, other: string): string {
  const [header, payload] = token.split('.');
  return `${header}.${payload}.${other.split('.')[2]}`;
}
