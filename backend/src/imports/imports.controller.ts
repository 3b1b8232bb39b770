import { Controller, Get, HttpCode, Param, Post, Query, Req, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { RoleName } from '../users/roles';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { ImportResponseDto, ImportStartQueryDto } from './dto/import.dto';
import { ImportUploadInterceptor, ImportUploads } from './import-upload.interceptor';
import { ImportsMessages } from './imports.messages';
import { ImportsService, toImportResponse } from './imports.service';

const ADMIN = Auth({ role: RoleName.ADMIN, forbidden: ImportsMessages.FORBIDDEN, unauthenticated: ImportsMessages.AUTH_REQUIRED });

const UPLOAD_BODY = ApiBody({
  schema: {
    type: 'object',
    required: ['file'],
    properties: {
      file: {
        type: 'string',
        format: 'binary',
        description: 'The export: WordPress WXR (.xml), Ghost (.json) or Inkwell (.zip); at most 1 GB',
      },
      media: {
        type: 'string',
        format: 'binary',
        description: "Optional: a zip of the site's uploads (WordPress wp-content/uploads, Ghost content/images), for featured images",
      },
    },
  },
});

/** Site imports (beyond the specs): admins upload an export, a job streams it, the page follows its progress. */
@ApiTags('Admin import and export')
@Controller('admin/imports')
export class ImportsController {
  constructor(private readonly imports: ImportsService) {}

  @Post()
  @ADMIN
  @HttpCode(202)
  @UseInterceptors(ImportUploadInterceptor)
  @ApiConsumes('multipart/form-data')
  @UPLOAD_BODY
  @ApiOperation({
    summary:
      'Upload an export and start importing it (admin): 202 with the queued import; the job streams it (one import at a time: 409 while one runs). With inviteAuthors=true each author account it creates is e-mailed a link to set its password',
  })
  @ApiEnvelope(ImportResponseDto, { status: 202 })
  @ApiErrors(400, 409, 413)
  async startSiteImport(
    @Query() query: ImportStartQueryDto,
    @Req() req: Request & { importUploads?: ImportUploads; importUploadsKept?: boolean },
    @CurrentUser() admin: AuthUser,
  ): Promise<WithMessage<ImportResponseDto>> {
    const row = await this.imports.start(req.importUploads ?? {}, query.source, admin, { inviteAuthors: query.inviteAuthors });
    req.importUploadsKept = true;
    return withMessage(toImportResponse(row), ImportsMessages.STARTED);
  }

  @Get()
  @ADMIN
  @ApiOperation({ summary: 'The latest imports, newest first (admin), with their progress and reports' })
  @ApiEnvelope(ImportResponseDto, { isArray: true })
  listSiteImports(): Promise<ImportResponseDto[]> {
    return this.imports.list();
  }

  @Get(':id')
  @ADMIN
  @ApiOperation({ summary: "An import's progress and report (admin)" })
  @ApiEnvelope(ImportResponseDto)
  @ApiErrors(400, 404)
  getSiteImport(@Param('id', new ParseIdPipe(ImportsMessages.NOT_FOUND)) id: number): Promise<ImportResponseDto> {
    return this.imports.get(id);
  }

  @Post(':id/cancel')
  @ADMIN
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Stop an import (admin): what it wrote stays, and running the same file again continues without duplicates; 409 once it has ended',
  })
  @ApiEnvelope(ImportResponseDto)
  @ApiErrors(400, 404, 409)
  async cancelSiteImport(@Param('id', new ParseIdPipe(ImportsMessages.NOT_FOUND)) id: number): Promise<WithMessage<ImportResponseDto>> {
    return withMessage(await this.imports.cancel(id), ImportsMessages.CANCEL_REQUESTED);
  }
}
