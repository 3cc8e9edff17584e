import {
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  VersionColumn,
} from 'typeorm';
import { Brand } from '../brands/brand.entity';
import { Client } from '../clients/client.entity';
import { Company } from '../companies/company.entity';

/** A product of a client's brand (docs/spec/interfaces.md "Product": id, name, client_id, brand_id). */
@Entity({ name: 'products' })
@Index('products_company_client_idx', ['companyId', 'clientId'])
@Index('products_company_brand_idx', ['companyId', 'brandId'])
export class Product {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'products_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'products_company_id_fkey' })
  company?: Company;

  @Column({ name: 'client_id', type: 'integer' })
  clientId!: number;

  @ManyToOne(() => Client, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'products_client_id_fkey' })
  client?: Client;

  @Column({ name: 'brand_id', type: 'integer' })
  brandId!: number;

  @ManyToOne(() => Brand, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'brand_id', foreignKeyConstraintName: 'products_brand_id_fkey' })
  brand?: Brand;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** Bumped by PostgreSQL on every change of the row (trigger `products_row_version`): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}
