import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsOptional, Matches } from 'class-validator';
import { CharLength, Required, trim } from '../../common/validation/field.rules';
import { FederationMessages as M } from '../federation.messages';

export class FederationActorDto {
  @ApiProperty({ description: "'site' (the publication) or an author's user ID" }) actor: string;
  @ApiProperty({ example: '@jane@blog.example' }) handle: string;
  @ApiProperty() followers: number;
}

export class FederationOverviewDto {
  @ApiProperty({ description: 'Fedify is loaded (Node 22 or later)' }) available: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Why federation cannot run here, when it cannot' })
  unavailableReason: string | null;
  @ApiProperty({ description: 'The site setting: federation on or off' }) enabled: boolean;
  @ApiProperty({ example: '@blog@blog.example' }) siteHandle: string;
  @ApiProperty({ type: [FederationActorDto] }) actors: FederationActorDto[];
  @ApiProperty({ description: 'Deliveries by status (PENDING, SENDING, DELIVERED, FAILED)', example: { DELIVERED: 12, FAILED: 1 } })
  deliveries: Record<string, number>;
}

export class FederationSettingsDto {
  @ApiProperty()
  @IsDefined({ message: M.ENABLED_INVALID })
  @IsBoolean({ message: M.ENABLED_INVALID })
  enabled: boolean;
}

export class RemoteFollowerDto {
  @ApiProperty({ description: "The remote actor's id" }) uri: string;
  @ApiProperty({ type: String, nullable: true, example: '@reader@mastodon.example' }) handle: string | null;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Profile page' }) url: string | null;
  @ApiProperty() host: string;
  @ApiProperty({ format: 'date-time' }) since: string;
}

export class FollowersQueryDto {
  @ApiPropertyOptional({ description: "'site' (default) or an author's user ID" })
  @IsOptional()
  @Matches(/^(site|[1-9]\d{0,8})$/, { message: M.ACTOR_FILTER_INVALID })
  actor?: string;
}

export class DeliveriesQueryDto {
  @ApiPropertyOptional({ description: 'Only failed deliveries' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: M.FAILED_INVALID })
  failed?: 'true' | 'false';
}

export class FederationDeliveryDto {
  @ApiProperty() id: string;
  @ApiProperty({ example: 'Create' }) activity: string;
  @ApiProperty() activityId: string;
  @ApiProperty({ description: "'site' or an author's user ID" }) sender: string;
  @ApiProperty() inbox: string;
  @ApiProperty({ enum: ['PENDING', 'SENDING', 'DELIVERED', 'FAILED'] }) status: string;
  @ApiProperty() attempts: number;
  @ApiProperty({ type: String, nullable: true }) lastError: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt: string | null;
}

export class FederationBlockDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: ['instance', 'actor'] }) kind: 'instance' | 'actor';
  @ApiProperty({ example: 'spam.example' }) value: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class FederationBlockCreateDto {
  @ApiProperty({ enum: ['instance', 'actor'] })
  @IsDefined({ message: M.KIND_INVALID })
  @IsIn(['instance', 'actor'], { message: M.KIND_INVALID })
  kind: 'instance' | 'actor';

  @ApiProperty({ maxLength: 500, description: 'A host name (instance) or an actor id (actor)', example: 'spam.example' })
  @Transform(trim)
  @Required(M.VALUE_REQUIRED)
  @CharLength(1, 500, M.VALUE_MAX)
  value: string;
}

export class AuthorFederationDto {
  @ApiProperty() available: boolean;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ example: '@jane@blog.example' }) handle: string;
  @ApiProperty() followerCount: number;
  @ApiProperty({ type: [RemoteFollowerDto], description: 'The newest 100' }) followers: RemoteFollowerDto[];
}

export class FederationReactionsDto {
  @ApiProperty({ description: 'Likes from the fediverse (never Inkwell likes)' }) likes: number;
  @ApiProperty({ description: 'Boosts (Announce) from the fediverse' }) boosts: number;
}

export class FederationStatusDto {
  @ApiProperty({ description: 'Federation runs here (Node >= 22) and is turned on' }) active: boolean;
  @ApiProperty({ example: 'blog.example', description: "PUBLIC_URL's host: handles are @slug@host" }) host: string;
  @ApiProperty({ example: '@blog@blog.example' }) siteHandle: string;
}

export class FollowAccountDto {
  @ApiProperty({
    maxLength: 500,
    description: "@user@host (looked up by WebFinger over https), or the account's actor or profile address",
    example: '@reader@mastodon.example',
  })
  @Transform(trim)
  @Required(M.ACCOUNT_REQUIRED)
  @CharLength(1, 500, M.ACCOUNT_MAX)
  account: string;
}

export class FollowingDto {
  @ApiProperty({ description: "The remote account's ID here (DELETE /federation/me/following/{id})" }) id: number;
  @ApiProperty({ description: "The remote actor's id" }) uri: string;
  @ApiProperty({ type: String, nullable: true, example: '@jane@other-blog.example' }) handle: string | null;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Profile page' }) url: string | null;
  @ApiProperty() host: string;
  @ApiProperty({ enum: ['PENDING', 'ACCEPTED'], description: 'PENDING until the other server accepts the Follow' }) state: string;
  @ApiProperty({ format: 'date-time' }) since: string;
}
