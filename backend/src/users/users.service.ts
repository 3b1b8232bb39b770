import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { effectiveRole } from './entities/role.entity';
import { User, UserStatus } from './entities/user.entity';

@Injectable()
export class UsersService {
  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}

  /** A user with their roles, or null. */
  findById(id: number): Promise<User | null> {
    return this.users.findOne({ where: { id }, relations: { userRoles: true } });
  }

  /**
   * The caller behind an access token: only verified, ACTIVE accounts keep access
   * ('locked' otherwise), checked on every request.
   */
  async findAuthUser(id: number): Promise<AuthUser | 'not-found' | 'locked'> {
    const user = await this.findById(id);
    if (!user) return 'not-found';
    if (!user.isVerified || user.status !== UserStatus.ACTIVE) return 'locked';
    const roles = user.userRoles.map((userRole) => userRole.role.name);
    return { id: user.id, email: user.email, fullName: user.fullName, roles, role: effectiveRole(roles) };
  }
}
