import { expect, test } from './fixtures';
import { ApiError } from '../src/lib/api/errors';
import { adminDashboardErrorMessage } from '../src/features/admin-dashboard/texts';
import { adminErrors } from '../src/features/admin-posts/texts';
import { actionErrors, usersLoadMessage } from '../src/features/admin-users/texts';
import { dashboardErrorMessage, myPostsErrorMessage } from '../src/features/author/texts';
import { commentErrors } from '../src/features/comments/texts';
import { CommonTexts } from '../src/lib/texts/common';
import { readerErrors } from '../src/features/reader/texts';
import { errorText } from '../src/lib/texts/error-text';
import { LIKE_ERRORS, UNLIKE_ERRORS } from '../src/features/likes/texts';

/** The one turn of an API failure into the spec's text, and the features' rules (no browser page needed). */

const failure = (status: number, message = 'Server says', errors: Record<string, string[]> | null = null) =>
  new ApiError(message, status, errors);
const network = () => new ApiError(CommonTexts.NETWORK_ERROR, 0);

test.describe('errorText', () => {
  test('defaults: the server message, else the fallback; no answer keeps its own text; not an ApiError is the fallback', () => {
    const texts = { fallback: 'Fallback' };
    expect(errorText(failure(404), texts)).toBe('Server says');
    expect(errorText(failure(500), texts)).toBe('Server says');
    expect(errorText(failure(400, ''), texts)).toBe('Fallback');
    expect(errorText(network(), texts)).toBe(CommonTexts.NETWORK_ERROR);
    expect(errorText(new ApiError('The upload took longer than 60 seconds. Please try again.', 0), texts)).toBe(
      'The upload took longer than 60 seconds. Please try again.',
    );
    expect(errorText(new Error('odd'), texts)).toBe('Fallback');
  });

  test('the rules in order: network, server, field errors, fixed status texts, server message, without message', () => {
    const texts = {
      fallback: 'Fallback',
      network: 'No answer',
      server: 'Server trouble',
      status: { 401: 'Sign in', 422: 'Invalid' },
      fieldErrors: [422],
      serverMessage: [403, 422],
      withoutMessage: { 403: 'Not allowed' },
    };
    expect(errorText(network(), texts)).toBe('No answer');
    expect(errorText(failure(503), texts)).toBe('Server trouble');
    expect(errorText(failure(422, 'x', { email: ['Email is taken'] }), texts)).toBe('Email is taken');
    expect(errorText(failure(422), texts)).toBe('Invalid');
    expect(errorText(failure(401), texts)).toBe('Sign in');
    expect(errorText(failure(403), texts)).toBe('Server says');
    expect(errorText(failure(403, ''), texts)).toBe('Not allowed');
    expect(errorText(failure(404), texts)).toBe('Fallback');
  });
});

test.describe('the features’ texts', () => {
  test('comments: no answer or 5xx the send text, 401 the login text, the server’s words for 400/403/404/409/429', () => {
    const texts = commentErrors('Unable to add comment. Please try again.');
    expect(errorText(network(), texts)).toBe('An error occurred while sending the comment. Please try again.');
    expect(errorText(failure(500), texts)).toBe('An error occurred while sending the comment. Please try again.');
    expect(errorText(failure(401), texts)).toBe('You need to log in to comment.');
    expect(errorText(failure(403, 'You do not have permission to comment.'), texts)).toBe('You do not have permission to comment.');
    expect(errorText(failure(410), texts)).toBe('Unable to add comment. Please try again.');
  });

  test('likes: 401 asks to sign in (Vietnamese), a 403 without words has the like’s or unlike’s own text', () => {
    expect(errorText(failure(401), LIKE_ERRORS)).toBe('Vui lòng đăng nhập để thích bài viết.');
    expect(errorText(failure(403, ''), LIKE_ERRORS)).toBe('You do not have permission to like');
    expect(errorText(failure(403, ''), UNLIKE_ERRORS)).toBe('You do not have permission to unlike');
    expect(errorText(failure(404, ''), UNLIKE_ERRORS)).toBe('Failed to like post');
  });

  test('back office: 401 and 5xx have the catalogue’s texts; a user action’s 5xx is the action’s text', () => {
    expect(errorText(failure(401), adminErrors('Failed'))).toBe('Authentication failed. Please log in again.');
    expect(errorText(failure(502), adminErrors('Failed'))).toBe('Server error occurred. Please try again later.');
    expect(errorText(failure(409, 'Tag is in use'), adminErrors('Failed'))).toBe('Tag is in use');
    expect(errorText(failure(500), actionErrors('Failed to ban user. Please try again.'))).toBe('Failed to ban user. Please try again.');
    expect(usersLoadMessage(failure(400, ''))).toBe(CommonTexts.UNEXPECTED_ERROR);
    expect(adminDashboardErrorMessage(failure(403))).toBe('You do not have permission to access admin dashboard.');
  });

  test('reader and author pages', () => {
    expect(errorText(failure(401), readerErrors('Failed to fetch liked posts'))).toBe('Authentication failed. Please log in again.');
    expect(errorText(failure(400, ''), readerErrors('Failed to fetch liked posts'))).toBe('Failed to fetch liked posts');
    expect(myPostsErrorMessage(failure(403))).toBe(
      "Access Denied: Your session has expired or you don't have permission to access this resource.",
    );
    expect(myPostsErrorMessage(failure(500))).toBe('Error: Failed to load posts. Please try again.');
    expect(myPostsErrorMessage(network())).toBe(CommonTexts.NETWORK_ERROR);
    expect(dashboardErrorMessage(failure(500, ''))).toBe('Failed to load dashboard data: Failed to fetch dashboard stats');
  });
});
