import { BadRequestException, Injectable, Optional, PipeTransform } from '@nestjs/common';
import { CommonMessages } from '../messages';

/** Ids are positive integers: a malformed id is 400 (an unknown one is the service's 404). */
@Injectable()
export class ParseIdPipe implements PipeTransform<string | number, number> {
  /** `new ParseIdPipe('Invalid post ID.')` answers with a route's own text. */
  constructor(@Optional() private readonly message: string = CommonMessages.INVALID_ID) {}

  // The global ValidationPipe may already have turned the path segment into a number.
  transform(value: string | number): number {
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !/^\d{1,15}$/.test(text)) throw new BadRequestException(this.message);
    const id = Number(text);
    if (!Number.isSafeInteger(id) || id < 1 || id > 2147483647) throw new BadRequestException(this.message);
    return id;
  }
}
