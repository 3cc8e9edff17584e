import { ApiProperty } from '@nestjs/swagger';
import { BatchResultDto } from '@platform/contracts';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';

/** 409 of an atomic batch: main-api's error body with what each operation answered. */
export class MainApiBatchFailedBodyDto extends MainApiErrorBodyDto {
  @ApiProperty({ type: [BatchResultDto], description: "Every operation's result; nothing was saved" })
  results!: BatchResultDto[];
}
