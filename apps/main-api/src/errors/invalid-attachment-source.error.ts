import { RequestValidationError } from '@platform/runtime';
import { ATTACHMENT_SOURCES } from '../tasks/task-attachment.entity';

/** An attachment `source_type` outside google_drive, dropbox, onedrive: 400 with code AC001. */
export class InvalidAttachmentSourceError extends RequestValidationError {
  constructor() {
    super([
      {
        field: 'source_type',
        validation: 'isIn',
        message: `source_type must be one of ${ATTACHMENT_SOURCES.join(', ')}`,
      },
    ]);
  }
}
