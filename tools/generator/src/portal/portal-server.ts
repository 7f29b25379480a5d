/**
 * `fw-gen portal`: serves the portal on loopback by default, sweeps expired sessions every minute,
 * and on SIGINT/SIGTERM stops, removing every session's workspace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BlueprintCatalog } from '../blueprint/catalog';
import type { GeneratorConfig } from '../config/generator-config';
import { makePortalApp } from './portal-app';

export interface PortalRunOptions {
  port: number;
  host: string;
  catalog: BlueprintCatalog;
  config: GeneratorConfig;
  out: (line: string) => void;
}

export interface RunningPortal {
  url: string;
  /** Stops listening and removes every workspace. */
  close(): Promise<void>;
}

/** Starts the portal and resolves once it listens. */
export async function startPortal(
  options: PortalRunOptions & { root?: string; ttlMillis?: number },
): Promise<RunningPortal> {
  const root = options.root ?? mkdtempSync(path.join(tmpdir(), 'fw-gen-portal-'));
  const portal = makePortalApp({
    catalog: options.catalog,
    config: options.config,
    root,
    ttlMillis: options.ttlMillis,
  });
  const server: Server = portal.app.listen(options.port, options.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const sweeper = setInterval(() => portal.sessions.sweep(), 60_000);
  sweeper.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}/`,
    close: async () => {
      clearInterval(sweeper);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      portal.sessions.closeAll();
      if (!options.root) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The CLI's portal mode: runs until SIGINT/SIGTERM. */
export async function runPortal(options: PortalRunOptions): Promise<void> {
  const portal = await startPortal(options);
  options.out(
    `fw-gen portal: ${portal.url} (sessions expire after 30 minutes without use; Ctrl-C stops and removes every workspace)`,
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void portal.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
