import { SetMetadata } from '@nestjs/common';

/** Marks a route that needs no session (the auth guard lets it through). */
export const IS_PUBLIC = 'inkwell:isPublic';
export const Public = () => SetMetadata(IS_PUBLIC, true);
