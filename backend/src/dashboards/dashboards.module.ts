import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DashboardsController } from './dashboards.controller';
import { DashboardsRepository } from './dashboards.repository';
import { DashboardsService } from './dashboards.service';

@Module({
  imports: [AuthModule],
  controllers: [DashboardsController],
  providers: [DashboardsService, DashboardsRepository],
})
export class DashboardsModule {}
