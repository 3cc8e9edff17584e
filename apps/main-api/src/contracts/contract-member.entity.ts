import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../users/user.entity';
import { Contract } from './contract.entity';

/** A user assigned to a contract; the key makes adding the same user twice a no-op. */
@Entity({ name: 'contract_members' })
@Index('contract_members_user_idx', ['userId'])
export class ContractMember {
  @PrimaryColumn({ name: 'contract_id', type: 'integer', primaryKeyConstraintName: 'contract_members_pkey' })
  contractId!: number;

  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'contract_members_pkey' })
  userId!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Contract, (contract) => contract.members, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'contract_id', foreignKeyConstraintName: 'contract_members_contract_id_fkey' })
  contract?: Contract;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'contract_members_user_id_fkey' })
  user?: User;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
