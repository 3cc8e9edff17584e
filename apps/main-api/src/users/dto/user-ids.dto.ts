import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, Max, Min } from 'class-validator';

/** `POST` / `DELETE /teams/{id}/users` (and contracts): users of your company. */
export class UserIdsDto {
  @ApiProperty({ example: [3, 8], type: [Number] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  user_ids!: number[];
}
