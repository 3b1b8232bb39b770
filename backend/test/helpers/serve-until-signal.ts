// The server as `npm start` runs it, minus the built pages and the embedded PostgreSQL: the whole
// API on DATABASE_URL, the drain gate and the stop signals of main.ts (stopOnSignals), plus a
// probe that answers after `?ms=`. DATA_DIR is argv[2]. Prints `ready <port>`; the shutdown test signals it.
import 'reflect-metadata';
import { Controller, Get, Module, Query } from '@nestjs/common';
import type { Server } from 'node:http';
import { createApp } from '../../src/app.factory';
import { Public } from '../../src/common/decorators/public.decorator';
import { loadConfig } from '../../src/config/env';
import { DrainGate, stopOnSignals } from '../../src/shutdown';

@Controller('probe')
class SlowAnswerController {
  @Get('slow')
  @Public()
  async slow(@Query('ms') ms: string) {
    await new Promise((done) => setTimeout(done, Number(ms) || 0));
    return { waited: Number(ms) || 0 };
  }
}
@Module({ controllers: [SlowAnswerController] })
class SlowAnswerModule {}

async function main(): Promise<void> {
  const config = loadConfig({
    DATA_DIR: process.argv[2],
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    THROTTLE_DISABLED: '1',
  });
  const app = await createApp({ config, databaseUrl: process.env.DATABASE_URL!, extraModules: [SlowAnswerModule] });
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer() as Server;
  stopOnSignals(server, new DrainGate(server), app, undefined, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`ready ${(server.address() as { port: number }).port}\n`);
}

main().catch((error: unknown) => {
  process.stdout.write(`failed ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
