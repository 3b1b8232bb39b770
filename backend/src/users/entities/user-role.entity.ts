import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Role } from './role.entity';
import type { User } from './user.entity';

@Entity('user_roles')
@Index('IDX_user_roles_role', ['roleId'])
export class UserRole {
  @PrimaryColumn({ name: 'user_id', type: 'int', primaryKeyConstraintName: 'PK_user_roles' })
  userId: number;

  @PrimaryColumn({ name: 'role_id', type: 'int', primaryKeyConstraintName: 'PK_user_roles' })
  roleId: number;

  @ManyToOne('User', (user: User) => user.userRoles, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_user_roles_user' })
  user: User;

  @ManyToOne(() => Role, { onDelete: 'CASCADE', eager: true })
  @JoinColumn({ name: 'role_id', foreignKeyConstraintName: 'FK_user_roles_role' })
  role: Role;

  @CreateDateColumn({ name: 'assigned_at', type: 'timestamptz' })
  assignedAt: Date;

  @Column({ name: 'assigned_by', type: 'int', nullable: true })
  assignedBy: number | null;
}
