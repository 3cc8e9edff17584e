import { ApiProperty } from '@nestjs/swagger';
import { TOKEN_STATUS_BATCH_LIMIT } from '@platform/auth';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, MaxLength } from 'class-validator';

/** `POST /v1/oauth/token-status/batch`: the tokens to check, each its own proof. */
export class TokenStatusBatchDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: TOKEN_STATUS_BATCH_LIMIT,
    description: 'Access tokens, exactly as they would be sent as bearer tokens',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TOKEN_STATUS_BATCH_LIMIT)
  @IsString({ each: true })
  @MaxLength(8192, { each: true })
  tokens!: string[];
}

export class TokenStatusBatchAnswerDto {
  @ApiProperty({
    type: [Boolean],
    example: [false, true],
    description:
      'For each token, in order: true when it no longer counts (it does not verify, or its subject or login was revoked), false when it still does',
  })
  revoked!: boolean[];
}
