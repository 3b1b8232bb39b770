import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Auth } from '../auth/auth.decorator';
import { RoleName } from '../users/roles';
import { ImportsMessages } from './imports.messages';
import { SiteExporter } from './site-exporter.service';

const ADMIN = Auth({ role: RoleName.ADMIN, forbidden: ImportsMessages.FORBIDDEN, unauthenticated: ImportsMessages.AUTH_REQUIRED });

/** The whole site as a zip: Inkwell's own JSON, every post as Markdown, the images. */
@ApiTags('Admin import and export')
@Controller('admin/export')
export class SiteExportController {
  constructor(private readonly exporter: SiteExporter) {}

  @Get()
  @ADMIN
  @ApiOperation({
    summary:
      'Download the whole site (admin): a zip streamed as it is made, with site.json (format inkwell-site-export, version 1), posts/<slug>.md and images/; importable with source=inkwell',
  })
  @ApiProduces('application/zip')
  @ApiResponse({ status: 200, description: 'The zip', content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } })
  async exportSite(@Res() res: Response): Promise<void> {
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Disposition', `attachment; filename="${this.exporter.fileName()}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    await this.exporter.write(res);
  }
}
