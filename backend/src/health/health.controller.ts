import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { Public } from '../common/decorators/public.decorator';

export class HealthDto {
  @ApiProperty({ example: 'ok' }) status: 'ok';
  @ApiProperty({ example: 'up' }) database: 'up';
  @ApiProperty({ example: 'applied' }) migrations: 'applied';
}

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Get()
  @Public()
  @SkipThrottle()
  @ApiOperation({ summary: 'Liveness and readiness: 200 once the database answers and every migration has run' })
  @ApiEnvelope(HealthDto)
  @ApiErrors(503)
  async getHealth(): Promise<HealthDto> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new ServiceUnavailableException('Database unavailable');
    }
    if (await this.dataSource.showMigrations()) throw new ServiceUnavailableException('Migrations pending');
    return { status: 'ok', database: 'up', migrations: 'applied' };
  }
}
