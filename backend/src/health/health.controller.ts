import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { Public } from '../common/decorators/public.decorator';
import { Unthrottled } from '../common/decorators/unthrottled.decorator';
import { RedisService } from '../redis/redis.service';

export class HealthDto {
  @ApiProperty({
    enum: ['ok', 'degraded'],
    example: 'ok',
    description: "'degraded' while Redis (REDIS_URL) is unreachable: requests are still served",
  })
  status: 'ok' | 'degraded';
  @ApiProperty({ example: 'up' }) database: 'up';
  @ApiProperty({ example: 'applied' }) migrations: 'applied';
  @ApiPropertyOptional({ enum: ['up', 'down'], description: 'Only with REDIS_URL: shared rate limits and cache invalidation' })
  redis?: 'up' | 'down';
}

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: RedisService,
  ) {}

  @Get()
  @Public()
  @Unthrottled()
  @ApiOperation({
    summary: 'Liveness and readiness: 200 once the database answers and every migration has run',
    description:
      "With REDIS_URL, `redis` tells whether Redis is reachable; while it is not, the answer is still 200 with status 'degraded'.",
  })
  @ApiEnvelope(HealthDto)
  @ApiErrors(503)
  async getHealth(): Promise<HealthDto> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new ServiceUnavailableException('Database unavailable');
    }
    if (await this.dataSource.showMigrations()) throw new ServiceUnavailableException('Migrations pending');
    const redis = this.redis.state;
    if (!redis) return { status: 'ok', database: 'up', migrations: 'applied' };
    return { status: redis === 'up' ? 'ok' : 'degraded', database: 'up', migrations: 'applied', redis };
  }
}
