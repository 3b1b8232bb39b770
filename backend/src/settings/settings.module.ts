import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SiteSetting } from './entities/site-setting.entity';
import { SettingsService } from './settings.service';

/** Site-wide settings (a store that knows no other feature); the admin API is in admin/. */
@Module({
  imports: [TypeOrmModule.forFeature([SiteSetting])],
  providers: [SettingsService],
  exports: [SettingsService],
})
export class SettingsModule {}
