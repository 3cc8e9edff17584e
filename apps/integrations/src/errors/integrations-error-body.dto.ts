import { ApiProperty } from '@nestjs/swagger';
import { IntegrationsErrorCode } from './integrations-error-code';
import { INTEGRATIONS_ERROR_NAMES } from './integrations-error-names';

/** Integrations error body `{error, message, code}`. */
export class IntegrationsErrorBodyDto {
  @ApiProperty({ enum: INTEGRATIONS_ERROR_NAMES, example: 'ValidationError' })
  error!: string;

  @ApiProperty({ example: 'metadata.source is required' })
  message!: string;

  @ApiProperty({ enum: IntegrationsErrorCode, enumName: 'IntegrationsErrorCode', example: 'ZC002' })
  code!: string;
}
