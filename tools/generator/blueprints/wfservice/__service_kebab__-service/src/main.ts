// `npm start`: {{service}} on PORT (default 8080){{#jpa}}, entities in DATABASE_URL (default ./.data){{/jpa}}.
import { createLogger } from '@fw/core';
import { make{{servicePascal}}App } from './app';
import { openStore } from './store';

async function main(): Promise<void> {
  const logger = createLogger({ name: '{{serviceKebab}}' });
  const opened = await openStore();
  const { app } = await make{{servicePascal}}App({ store: opened.store });
  const port = Number(process.env.PORT ?? 8080);
  const server = app.listen(port, () => logger.info(`{{service}} on http://127.0.0.1:${port}/{{service}} (store: ${opened.location})`));
  const stop = (): void => {
    server.close(() => void opened.close().finally(() => process.exit(0)));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
