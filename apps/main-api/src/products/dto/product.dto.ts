import { IsEntityId, API_ROW_VERSION } from '@platform/contracts';
import { ApiProperty, PartialType } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import type { Product } from '../product.entity';

export class CreateProductDto {
  @ApiProperty({ example: 7, description: 'A client of your company' })
  @IsEntityId()
  client_id!: number;

  @ApiProperty({ example: 4, description: 'A brand of that client' })
  @IsEntityId()
  brand_id!: number;

  @ApiProperty({ example: 'Oat Crunch 500 g', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;
}

export class UpdateProductDto extends PartialType(CreateProductDto, { skipNullProperties: false }) {}

/** docs/spec/interfaces.md "Product": id, name, client_id, brand_id. */
export class ProductDto {
  @ApiProperty({ example: 12 })
  id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;

  @ApiProperty({ example: 'Oat Crunch 500 g' })
  name!: string;

  @ApiProperty({ example: 7 })
  client_id!: number;

  @ApiProperty({ example: 4 })
  brand_id!: number;

  static from(product: Product): ProductDto {
    return {
      id: product.id,
      version: product.version,
      name: product.name,
      client_id: product.clientId,
      brand_id: product.brandId,
    };
  }
}
