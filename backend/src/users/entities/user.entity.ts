import { Check, Column, CreateDateColumn, Entity, Index, OneToMany, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { UserRole } from './user-role.entity';

export enum UserStatus {
  PENDING = 'PENDING',
  ACTIVE = 'ACTIVE',
  INACTIVE = 'INACTIVE',
  BANNED = 'BANNED',
}

/**
 * A person with an account. `email` is stored lower-cased, so the unique key is
 * case-insensitive. The password hash never leaves the users/auth services (see toUserResponse).
 */
@Entity('users')
@Check('CHK_users_status', `"status" IN ('PENDING', 'ACTIVE', 'INACTIVE', 'BANNED')`)
@Check('CHK_users_deletion_via', `"deletion_via" IN ('self', 'admin')`)
@Index('IDX_users_created_at', ['createdAt', 'id'])
@Index('IDX_users_status_created', ['status', 'createdAt', 'id'])
// Trigram GIN indexes for the admin search (ILIKE '%fragment%'), created by the AdminUsers
// migration; TypeORM cannot describe operator classes, so the generator leaves them alone.
@Index('IDX_users_full_name_trgm', { synchronize: false })
@Index('IDX_users_email_trgm', { synchronize: false })
// The admin list's other sorts: by name, case-insensitively ((lower(full_name), id) INCLUDE
// (full_name), index-only) and by last sign-in ((last_login_at NULLS FIRST, id)).
@Index('IDX_users_name_lower', { synchronize: false })
@Index('IDX_users_last_login', { synchronize: false })
@Index('IDX_users_updated_at', ['updatedAt', 'id'])
export class User {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_users' })
  id: number;

  @Column({ name: 'full_name', type: 'varchar', length: 100 })
  fullName: string;

  /**
   * The public author page's address `/authors/{slug}`: unique and stable (a name change keeps
   * it). The database assigns it on insert (migration AddUserSlugs), so the app never sets it.
   */
  @Index('UQ_users_slug', { unique: true })
  @Column({ type: 'varchar', length: 112, collation: 'C', insert: false, update: false })
  slug: string;

  @Index('UQ_users_email', { unique: true })
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 100 })
  passwordHash: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  avatar: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  bio: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  website: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  location: string | null;

  @Column({ type: 'varchar', length: 16, default: UserStatus.PENDING })
  status: UserStatus;

  @Column({ name: 'is_verified', type: 'boolean', default: false })
  isVerified: boolean;

  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt: Date | null;

  @Column({ name: 'last_login_at', type: 'timestamptz', nullable: true })
  lastLoginAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  /**
   * Set while the account waits to be erased: it cannot be used (no session, no
   * sign-in but the one that cancels) and the erasure job runs at this time. Null otherwise.
   */
  @Column({ name: 'deletion_due_at', type: 'timestamptz', nullable: true })
  deletionDueAt: Date | null;

  /** Who asked for the pending deletion: the owner ('self') or an administrator ('admin'). */
  @Column({ name: 'deletion_via', type: 'varchar', length: 8, nullable: true })
  deletionVia: 'self' | 'admin' | null;

  /**
   * The site's own stand-in accounts, one of each, that cannot sign in: 'former-author' keeps the
   * published posts of erased authors, 'deleted-user' the comments of erased accounts.
   */
  @Index('UQ_users_placeholder', { unique: true, where: `"placeholder" IS NOT NULL` })
  @Column({ type: 'varchar', length: 20, nullable: true })
  placeholder: 'former-author' | 'deleted-user' | null;

  @OneToMany('UserRole', (userRole: UserRole) => userRole.user)
  userRoles: UserRole[];
}
