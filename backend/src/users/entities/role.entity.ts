import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { RoleName } from '../roles';

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
