import { Injectable } from '@nestjs/common';
import {
  entityTag,
  listedTags,
  PreconditionFailedError,
  PreconditionRequiredError,
  versionOfTag,
} from '@platform/runtime';
import type { PlanningSettingsBodyDto, PlanningSettingsDto } from './dto/planning-settings.dto';
import { LedgerRepository } from './ledger.repository';

/** The company's planning settings: one resource per company, changed with If-Match like any v2 write. */
@Injectable()
export class PlanningSettingsService {
  constructor(private readonly ledger: LedgerRepository) {}

  get(): Promise<PlanningSettingsDto> {
    return this.ledger.settings();
  }

  /**
   * Replaces the settings when `ifMatch` names their version (or is `*`), under the row's lock, so
   * of two administrators editing at once the second is refused (412) rather than silently undone.
   */
  async replace(body: PlanningSettingsBodyDto, ifMatch: string | undefined): Promise<PlanningSettingsDto> {
    if (ifMatch === undefined) {
      throw new PreconditionRequiredError('planning settings');
    }
    const tags = listedTags(ifMatch);
    return this.ledger.transaction(async (unit) => {
      const current = await unit.lockSettings();
      if (!tags.includes('*') && !tags.some((tag) => versionOfTag(tag) === current.version)) {
        const error = new PreconditionFailedError('planning settings');
        error.current = { body: current, etag: entityTag(JSON.stringify(current), current.version) };
        throw error;
      }
      return unit.updateSettings({
        capacity_policy: body.capacity_policy,
        count_tentative: body.count_tentative,
      });
    });
  }
}
