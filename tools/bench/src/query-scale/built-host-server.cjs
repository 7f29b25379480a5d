// The query host as npm users run it: the built packages on plain node (no TypeScript loader),
// behind the benchmark's IPC protocol (see ../load/server-process.ts).
const { createLogger, loadConfigFile } = require('@fw/core');
const { createQueryHost } = require('@fw/query-host');

(async () => {
  const host = await createQueryHost({
    config: loadConfigFile(process.argv[2] || ''),
    logger: createLogger({ name: 'bench-query-host', level: 'error' }),
  });
  const { port } = await host.listen();
  process.on('message', async (message) => {
    if (message.type === 'memory') {
      const usage = process.memoryUsage();
      const cpu = process.cpuUsage();
      process.send({
        type: 'memory',
        rss: usage.rss,
        heapUsed: usage.heapUsed,
        heapTotal: usage.heapTotal,
        cpuMs: (cpu.user + cpu.system) / 1000,
      });
    } else if (message.type === 'stop') {
      await host.close();
      process.exit(0);
    }
  });
  process.send({ type: 'ready', port });
})().catch((err) => {
  process.send({ type: 'failed', message: err && err.stack ? err.stack : String(err) });
  process.exit(1);
});
