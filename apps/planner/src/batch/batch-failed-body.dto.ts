import { ApiProperty } from '@nestjs/swagger';
import { BatchResultDto } from '@platform/contracts';
import { PlannerErrorBodyDto } from '../errors/planner-error-body.dto';

/** 409 of an atomic batch: the planner's error body with what each operation answered. */
export class PlannerBatchFailedBodyDto extends PlannerErrorBodyDto {
  @ApiProperty({ type: [BatchResultDto], description: "Every operation's result; nothing was saved" })
  results!: BatchResultDto[];
}
