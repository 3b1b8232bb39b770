import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsDefined } from 'class-validator';
import { AccountSessionsMessages } from '../account-sessions.messages';

/** One live session of the caller (a sign-in and the refreshes that followed it). */
export class AccountSessionDto {
  @ApiProperty({ format: 'uuid', description: "The session's id (the access tokens' sid)" }) id: string;
  @ApiProperty({ description: "Browser and system from the user agent: 'Firefox on Windows'; an API client's name; or 'Unknown device'" })
  device: string;
  @ApiProperty({ type: String, nullable: true, description: 'Browser family, without version' }) browser: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Operating system, without version' }) os: string | null;
  @ApiProperty({
    description:
      "Approximate place from the client address (no geo lookup): '203.0.113.x', an IPv6 /48 prefix, 'Local network' or 'Unknown location'",
  })
  place: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the sign-in happened' }) createdAt: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'The last sign-in or token refresh of the session (refreshes come every 15 minutes of use)',
  })
  lastUsedAt: string;
  @ApiProperty({ description: "The caller's own session (this device)" }) current: boolean;
}

export class SessionsSignedOutDto {
  @ApiProperty({ description: 'How many sessions were signed out' }) signedOut: number;
}

export class SignInAlertSettingsDto {
  @ApiProperty({ description: "E-mail 'New sign-in to your account' on a sign-in from a device not used in the last 90 days (default on)" })
  newDeviceEmail: boolean;
}

export class SignInAlertSettingsUpdateDto {
  @ApiProperty({ description: 'Whether to send the new-device e-mail' })
  @IsDefined({ message: AccountSessionsMessages.NEW_DEVICE_EMAIL_REQUIRED })
  @IsBoolean({ message: AccountSessionsMessages.BOOLEAN })
  newDeviceEmail: boolean;
}
