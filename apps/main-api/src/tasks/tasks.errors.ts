import { HttpStatus } from '@nestjs/common';
import { MainApiErrorCode } from '../errors/main-api-error-code';
import { MainApiError } from '../errors/main-api.errors';
import { ATTACHMENT_SOURCES } from './task-attachment.entity';

/** An attachment `source_type` outside google_drive, dropbox, onedrive: 400 with code AC001. */
export class InvalidAttachmentSourceError extends MainApiError {
  constructor() {
    const fieldError = {
      field: 'source_type',
      validation: 'isIn',
      message: `source_type must be one of ${ATTACHMENT_SOURCES.join(', ')}`,
    };
    super(
      HttpStatus.BAD_REQUEST,
      MainApiErrorCode.InvalidAttachmentSource,
      `Request validation failed: ${fieldError.message}`,
      [fieldError],
    );
  }
}
