import { Body, Controller, Delete, Get, HttpCode, Post, Put, UploadedFile, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { withMessage } from '../common/envelope';
import { AvatarUploadInterceptor } from './avatar-upload.interceptor';
import { UserProfileUpdateDto } from './dto/user-profile-update.dto';
import { AvatarResponseDto, UserProfileResponseDto, UserResponseDto } from './dto/user-response.dto';
import { UsersMessages } from './users.messages';
import { UsersService } from './users.service';

@ApiTags('Users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('profile')
  @Auth()
  @ApiOperation({ summary: "The signed-in user's profile" })
  @ApiEnvelope(UserProfileResponseDto)
  async getProfile(@CurrentUser() user: AuthUser): Promise<UserProfileResponseDto> {
    // The session check read the profile and the mute already (the same row, in the same query).
    const [profile, mute] = await Promise.all([
      user.profile ?? this.users.getProfile(user.id),
      user.commentingMute !== undefined ? user.commentingMute : this.users.commentingMute(user.id),
    ]);
    return {
      ...profile,
      commentingMutedUntil: mute?.mutedUntil ? mute.mutedUntil.toISOString() : null,
      commentingMutedForever: !!mute && mute.mutedUntil === null,
      commentingMutedReason: mute?.reason ?? null,
    };
  }

  @Put('profile')
  @Auth()
  @ApiOperation({ summary: 'Update the profile (partial: fields left out keep their values)' })
  @ApiEnvelope(UserResponseDto, { description: "Updated; message 'Profile updated successfully!'" })
  @ApiErrors(400, 409)
  async updateProfile(@CurrentUser() user: AuthUser, @Body() body: UserProfileUpdateDto) {
    return withMessage(await this.users.updateProfile(user.id, body), UsersMessages.PROFILE_UPDATED);
  }

  @Post('avatar')
  @HttpCode(200)
  @Auth()
  @UseInterceptors(AvatarUploadInterceptor)
  @ApiOperation({ summary: 'Upload an avatar (any image up to 10 MB; stored as a 512x512 WebP)' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiEnvelope(AvatarResponseDto)
  @ApiErrors(400, 413, 429, 503)
  async uploadAvatar(@CurrentUser() user: AuthUser, @UploadedFile() file: Express.Multer.File | undefined) {
    return withMessage(await this.users.setAvatar(user.id, file && { path: file.path, size: file.size }), UsersMessages.AVATAR_UPLOADED);
  }

  @Delete('avatar')
  @Auth()
  @ApiOperation({ summary: 'Remove the avatar' })
  @ApiEnvelope(UserResponseDto, { description: 'The profile, avatar null' })
  async deleteAvatar(@CurrentUser() user: AuthUser) {
    return withMessage(await this.users.removeAvatar(user.id), UsersMessages.AVATAR_DELETED);
  }
}
