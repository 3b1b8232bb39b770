import { Global, Module } from '@nestjs/common';
import { JobsService } from './jobs.service';

/** The job queue, one per app (global: any module can enqueue or register a queue). */
@Global()
@Module({
  providers: [JobsService],
  exports: [JobsService],
})
export class JobsModule {}
