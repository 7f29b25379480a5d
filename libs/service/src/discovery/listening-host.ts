/**
 * What a host does once its HTTP server is listening: read the bound address (the port may have
 * been 0), make the URL others reach it at, and — when a service registry is configured — start the
 * registry delegate that announces the host there. Every host needs these same steps, so they live
 * here beside the delegate rather than in each host.
 *
 * @example
 * server.once('listening', () => {
 *   const { url, delegate } = onListening(server, { registry, serviceRegistry: { url: 'http://registry:8080' }, logger });
 *   logger.info({ url }, 'listening');
 *   // at shutdown: await delegate?.stop();
 * });
 */
import { ConfigError, type Logger } from '@fw/core';
import type { Server } from 'node:net';
import type { ServiceRegistry } from '../registry/service-registry';
import { makeRegistryDelegate, type RegistryDelegate } from './registry-delegate';

export interface OnListeningOptions {
  /** The host's registry, whose services the delegate announces. */
  registry: ServiceRegistry;
  /**
   * Where to register, if anywhere: the registry host's base URL and this host's own base URL as
   * others reach it (default: the bound URL, which is wrong behind a proxy or in a container).
   */
  serviceRegistry?: { url: string; baseUrl?: string };
  logger?: Logger;
}

export interface ListeningHost {
  /** The bound IP address (`::` or `0.0.0.0` when listening on every interface). */
  address: string;
  port: number;
  /** `http://<address>:<port>`, an IPv6 address in brackets. */
  url: string;
  /** The started registry delegate when `serviceRegistry` was given; stop it at shutdown. */
  delegate: RegistryDelegate | undefined;
}

/** The bound address, port and URL of a listening server; starts the registry delegate when asked to. */
export function onListening(server: Pick<Server, 'address'>, options: OnListeningOptions): ListeningHost {
  const bound = server.address();
  if (bound === null || typeof bound === 'string')
    throw new ConfigError(
      `a host can only be announced once it listens on a TCP port (its server is ${bound === null ? 'not listening' : `on the pipe ${bound}`})`,
    );
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  const url = `http://${host}:${bound.port}`;
  let delegate: RegistryDelegate | undefined;
  if (options.serviceRegistry) {
    delegate = makeRegistryDelegate({
      registryUrl: options.serviceRegistry.url,
      baseUrl: options.serviceRegistry.baseUrl ?? url,
      registry: options.registry,
      logger: options.logger,
    });
    delegate.start();
  }
  return { address: bound.address, port: bound.port, url, delegate };
}
