import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserBan } from './entities/user-ban.entity';
import { ImagesModule } from '../images/images.module';
import { Role } from './entities/role.entity';
import { User } from './entities/user.entity';
import { UserRole } from './entities/user-role.entity';
import { UserCacheSubscriber } from './user-cache.subscriber';
import { UserLifecycleService } from './user-lifecycle.service';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

/** Accounts: their creation (UsersService.create), their lifecycle (UserLifecycleService), the profile. */
@Module({
  imports: [TypeOrmModule.forFeature([User, Role, UserRole, UserBan]), ImagesModule],
  controllers: [UsersController],
  providers: [UsersService, UserLifecycleService, UserCacheSubscriber],
  exports: [UsersService, UserLifecycleService, TypeOrmModule],
})
export class UsersModule {}
