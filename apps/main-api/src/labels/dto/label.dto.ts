import { MayBeAbsent, API_ROW_VERSION } from '@platform/contracts';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsIn, IsString, Length, Matches } from 'class-validator';
import { LABEL_MODELS, type LabelModel } from '../label.entity';
import type { LabelRow } from '../labels.repository';

export class CreateLabelDto {
  @ApiProperty({ example: 'Priority', maxLength: 100 })
  @IsString()
  @Length(1, 100)
  name!: string;

  @ApiPropertyOptional({ example: '#ff5722', description: '#RRGGBB; default grey' })
  @MayBeAbsent()
  @Matches(/^#[0-9a-fA-F]{6}$/, { message: 'color must be #RRGGBB' })
  color?: string;

  @ApiProperty({ enum: LABEL_MODELS, example: 'project', description: 'What the label is for' })
  @IsIn(LABEL_MODELS)
  model!: LabelModel;
}

export class UpdateLabelDto extends PartialType(CreateLabelDto, { skipNullProperties: false }) {}

export class LabelsModelQueryDto {
  @ApiProperty({ enum: LABEL_MODELS, example: 'project' })
  @IsIn(LABEL_MODELS, { message: `model must be one of ${LABEL_MODELS.join(', ')}` })
  model!: LabelModel;
}

export class LabelDto {
  @ApiProperty({ example: 4 })
  id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;

  @ApiProperty({ example: 'Priority' })
  name!: string;

  @ApiProperty({ example: '#ff5722' })
  color!: string;

  @ApiProperty({ enum: LABEL_MODELS, example: 'project' })
  model!: LabelModel;

  /** From a Label, or a row of the labels of a model. */
  static from(label: LabelRow): LabelDto {
    return { id: label.id, version: label.version, name: label.name, color: label.color, model: label.model };
  }
}
