#!/usr/bin/env node
// The reference app as a command (`npm run reference-app`): listens on HOST:PORT (default
// 127.0.0.1 and a free port) and prints `listening on <url>`, the line IT_APP_COMMAND waits for.{{#security}}
// Tokens are checked with IT_JWT_SECRET (and IT_JWT_ISSUER / IT_JWT_AUDIENCE when set).{{/security}}
import { startReferenceApp } from './reference-app';

async function main(env: NodeJS.ProcessEnv): Promise<void> {
{{#security}}
  const secret = env.IT_JWT_SECRET;
  if (!secret) throw new Error('IT_JWT_SECRET is not set (the HS256 secret, at least 32 characters)');
{{/security}}
  const app = await startReferenceApp({
    port: Number(env.PORT ?? '0'),
    host: env.HOST ?? '127.0.0.1',
{{#security}}
    jwt: { secret, issuer: env.IT_JWT_ISSUER || undefined, audience: env.IT_JWT_AUDIENCE || undefined },
{{/security}}
  });
  console.log(`listening on ${app.url}`);
  const stop = () => void app.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main(process.env).catch((err: unknown) => {
  console.error(`reference app: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
