/** Every migration, oldest first. `npm run migration:generate -- Name` appends to this list. */
import { AddImportInvitations1796036500000 } from './1796036500000-AddImportInvitations';
import { AuditWebhooks1796037000000 } from './1796037000000-AuditWebhooks';
import { CreateAnalytics1796060000000 } from './1796060000000-CreateAnalytics';
import { CreateFederation1796050000000 } from './1796050000000-CreateFederation';
import { CreateFederationFollowing1796090000000 } from './1796090000000-CreateFederationFollowing';
import { FederationSignedBody1796200000000 } from './1796200000000-FederationSignedBody';
import { CreateSessionDevices1796032000000 } from './1796032000000-CreateSessionDevices';
import { CreateWebhooks1796035000000 } from './1796035000000-CreateWebhooks';
import { CreateSiteImports1796036000000 } from './1796036000000-CreateSiteImports';
import { CreateSiteSettings1796030000000 } from './1796030000000-CreateSiteSettings';
import { CreateApiTokens1796034000000 } from './1796034000000-CreateApiTokens';
import { CreateTwoFactor1796031000000 } from './1796031000000-CreateTwoFactor';
import { AddAccountData1796033000000 } from './1796033000000-AddAccountData';
import { CreateNotifications1795695440595 } from './1795695440595-CreateNotifications';
import { AddCommentModeration1795695450622 } from './1795695450622-AddCommentModeration';
import { CreateAttemptCounters1795444543349 } from './1795444543349-CreateAttemptCounters';
import { CreateComments1795447435829 } from './1795447435829-CreateComments';
import { CreateLikes1795447442486 } from './1795447442486-CreateLikes';
import { AddRefreshSuccessor1795444400316 } from './1795444400316-AddRefreshSuccessor';
import { CreateAuthTokens1795336604900 } from './1795336604900-CreateAuthTokens';
import { CreatePostsTagsReviews1795336563452 } from './1795336563452-CreatePostsTagsReviews';
import { CreateUsersAndRoles1795336336857 } from './1795336336857-CreateUsersAndRoles';
import { DemotePostBodyHeadings1795444368112 } from './1795444368112-DemotePostBodyHeadings';
import { CreateAuditLog1795454970038 } from './1795454970038-CreateAuditLog';
import { CreateThumbnails1795455124615 } from './1795455124615-CreateThumbnails';
import { CreateUserBansAndUserSearch1795455169617 } from './1795455169617-CreateUserBansAndUserSearch';
import { AddPostWordCount1795458037891 } from './1795458037891-AddPostWordCount';
import { AddPostsStatusCreatedIndex1795458787462 } from './1795458787462-AddPostsStatusCreatedIndex';
import { CreateSlugHistory1795460000000 } from './1795460000000-CreateSlugHistory';
import { CanonicalizeUserEmails1795684721035 } from './1795684721035-CanonicalizeUserEmails';
import { CreatePostSearch1795690000000 } from './1795690000000-CreatePostSearch';
import { AddUserSlugs1795700000000 } from './1795700000000-AddUserSlugs';
import { AddPostRevisions1795710000000 } from './1795710000000-AddPostRevisions';
import { AddPostScheduling1795800000000 } from './1795800000000-AddPostScheduling';
import { CreatePostPreviewLinks1795900000000 } from './1795900000000-CreatePostPreviewLinks';
import { CreateDomainEvents1796000000000 } from './1796000000000-CreateDomainEvents';
import { AddReaderLikeCounts1796026100000 } from './1796026100000-AddReaderLikeCounts';
import { CreateNotificationCounters1796026300000 } from './1796026300000-CreateNotificationCounters';
import { CreateNewsletter1796040000000 } from './1796040000000-CreateNewsletter';
import { CreateInkwellMetaAndBackupRuns1796070000000 } from './1796070000000-CreateInkwellMetaAndBackupRuns';
export const MIGRATIONS: Function[] = [
  CreateUsersAndRoles1795336336857,
  CreatePostsTagsReviews1795336563452,
  CreateAuthTokens1795336604900,
  DemotePostBodyHeadings1795444368112,
  AddRefreshSuccessor1795444400316,
  CreateAttemptCounters1795444543349,
  CreateComments1795447435829,
  CreateLikes1795447442486,
  CreateAuditLog1795454970038,
  CreateThumbnails1795455124615,
  CreateUserBansAndUserSearch1795455169617,
  AddPostWordCount1795458037891,
  AddPostsStatusCreatedIndex1795458787462,
  CreateSlugHistory1795460000000,
  CanonicalizeUserEmails1795684721035,
  CreatePostSearch1795690000000,
  CreateNotifications1795695440595,
  AddCommentModeration1795695450622,
  AddUserSlugs1795700000000,
  AddPostRevisions1795710000000,
  AddPostScheduling1795800000000,
  CreatePostPreviewLinks1795900000000,
  CreateDomainEvents1796000000000,
  AddReaderLikeCounts1796026100000,
  CreateNotificationCounters1796026300000,
  CreateSiteSettings1796030000000,
  CreateTwoFactor1796031000000,
  CreateSessionDevices1796032000000,
  AddAccountData1796033000000,
  CreateApiTokens1796034000000,
  CreateWebhooks1796035000000,
  CreateSiteImports1796036000000,
  AddImportInvitations1796036500000,
  AuditWebhooks1796037000000,
  CreateNewsletter1796040000000,
  CreateFederation1796050000000,
  CreateAnalytics1796060000000,
  CreateInkwellMetaAndBackupRuns1796070000000,
  CreateFederationFollowing1796090000000,
  FederationSignedBody1796200000000,
];
