import { ArgumentsHost, Catch, UnauthorizedException, UseFilters } from '@nestjs/common';
import { AuthMessages } from '../auth/auth.messages';
import { AllExceptionsFilter } from '../common/filters/all-exceptions.filter';

/**
 * Answers "no session at all" with the route's own text from spec 001 §5 ('Authentication
 * required: Please log in to create/update posts.'); expired or invalid tokens keep theirs.
 * The envelope is written by the app's one exception filter.
 */
@Catch(UnauthorizedException)
export class AuthRequiredTextFilter extends AllExceptionsFilter {
  constructor(private readonly text: string) {
    super();
  }

  catch(exception: UnauthorizedException, host: ArgumentsHost): void {
    const body = exception.getResponse();
    const message = typeof body === 'string' ? body : (body as { message?: unknown }).message;
    super.catch(message === AuthMessages.AUTH_REQUIRED ? new UnauthorizedException(this.text) : exception, host);
  }
}

export const AuthRequiredText = (text: string) => UseFilters(new AuthRequiredTextFilter(text));
