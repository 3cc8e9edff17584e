import { Injectable } from '@nestjs/common';
import type { LeavePolicyDto, UpdateLeavePolicyDto } from './dto/leave.dto';
import { LeavePolicyRepository } from './leave-policy.repository';

/** The company's leave policy: whether a person's own leave waits for a manager's approval. */
@Injectable()
export class LeavePolicyService {
  constructor(private readonly policy: LeavePolicyRepository) {}

  async get(): Promise<LeavePolicyDto> {
    return { approval_required: await this.policy.approvalRequired() };
  }

  async set(body: UpdateLeavePolicyDto): Promise<LeavePolicyDto> {
    return { approval_required: await this.policy.setApprovalRequired(body.approval_required) };
  }
}
