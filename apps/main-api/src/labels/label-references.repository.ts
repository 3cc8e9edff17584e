import { Injectable } from '@nestjs/common';
import { RequestTenantScope } from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { In } from 'typeorm';
import { Label } from './label.entity';

/**
 * The labels a project or user carries. They are an integer array, which no foreign key can hold to
 * the company's labels, so this look-up is the only rule keeping another company's ids out.
 */
@Injectable()
export class LabelReferences {
  constructor(private readonly scope: RequestTenantScope) {}

  /**
   * 400 naming `labels` unless each id is a label of the request's company. A label deleted since it
   * was put on the row (`kept`) may stay, so a client sending back the labels it read is not refused;
   * one newly added must not be deleted. Another company's id is as unknown as a missing one.
   */
  async require(ids: number[], kept: readonly number[] = []): Promise<void> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) {
      return;
    }
    const found = await this.scope.repository(Label).find({
      where: { id: In(wanted) },
      select: { id: true, deletedAt: true },
      withDeleted: true,
    });
    const usable = new Set(
      found.filter((label) => label.deletedAt === null || kept.includes(label.id)).map((label) => label.id),
    );
    const missing = wanted.filter((id) => !usable.has(id));
    if (missing.length > 0) {
      throw new RequestValidationError([
        { field: 'labels', validation: 'exists', message: `labels ${missing.join(', ')} do not exist` },
      ]);
    }
  }
}
