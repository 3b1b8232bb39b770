import { BadRequestException, Injectable, PipeTransform } from '@nestjs/common';
import { CommonMessages } from '../messages';

/** Ids are positive integers: a malformed id is 400 (an unknown one is the service's 404). */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  constructor(private readonly message: string = CommonMessages.INVALID_ID) {}

  transform(value: string): number {
    if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) throw new BadRequestException(this.message);
    const id = Number(value);
    if (!Number.isSafeInteger(id) || id < 1 || id > 2147483647) throw new BadRequestException(this.message);
    return id;
  }
}
