import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Ranked ADMIN (3) > AUTHOR (2) > USER (1); a user holds several, the highest counts. */
export enum RoleName {
  ADMIN = 'ADMIN',
  AUTHOR = 'AUTHOR',
  USER = 'USER',
}

export const ROLE_RANK: Record<RoleName, number> = { ADMIN: 3, AUTHOR: 2, USER: 1 };

/** The highest-ranked role of a list; none = USER. */
export function effectiveRole(roles: readonly RoleName[]): RoleName {
  return roles.reduce<RoleName>((best, role) => (ROLE_RANK[role] > ROLE_RANK[best] ? role : best), RoleName.USER);
}

@Entity('roles')
export class Role {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_roles' })
  id: number;

  @Index('UQ_roles_name', { unique: true })
  @Column({ type: 'varchar', length: 20 })
  name: RoleName;

  @Column({ name: 'display_name', type: 'varchar', length: 50 })
  displayName: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  description: string;
}
