// The query host under test, in its own process: the real createQueryHost from a config file.
import { createLogger, loadConfigFile } from '@fw/core';
import { createQueryHost } from '@fw/query-host';
import { serveOverIpc } from '../load/server-process';

serveOverIpc(async () => {
  const host = await createQueryHost({
    config: loadConfigFile(process.argv[2] ?? ''),
    logger: createLogger({ name: 'bench-query-host', level: 'warn' }),
  });
  const { port } = await host.listen();
  return { port, close: () => host.close() };
});
