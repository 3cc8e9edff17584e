import type { Type } from '@nestjs/common';
import { IntersectionType, OmitType, PartialType, PickType } from '@nestjs/swagger';

/**
 * The answer to a delete: the deleted entity as `entity` describes it, or only its `id` when main-api
 * no longer had it (every other field may then be absent).
 */
export function DeletedResponseOf<Entity extends { id: number }>(entity: Type<Entity>) {
  return IntersectionType(
    PickType(entity, ['id'] as const),
    PartialType(OmitType(entity, ['id'] as const), { skipNullProperties: false }),
  );
}
