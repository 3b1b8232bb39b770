import { BadRequestException, ConflictException, ForbiddenException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager, Repository } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { RoleName } from '../users/roles';
import { ImageUploadInfoDto, ImageValidationDto, ThumbnailUploadDto } from './dto/image-response.dto';
import { Thumbnail } from './entities/thumbnail.entity';
import { encodeThumbnail, ImageRejectedError, validateThumbnail } from './image-pipeline';
import {
  ALLOWED_FORMATS,
  keyOfThumbnailFile,
  MAX_DIMENSIONS,
  MAX_IMAGE_BYTES,
  parseThumbnailName,
  RECOMMENDED_DIMENSIONS,
  thumbnailFileName,
  thumbnailFiles,
  variantFileName,
} from './image-rules';
import { DecodeQueue } from './decode-queue';
import { ImageStorageService } from './image-storage.service';
import { imageRejected } from './image-upload.interceptor';
import { ImagesMessages } from './images.messages';
import type { UploadedImage } from './upload-receiver';

const HOUR_MS = 3_600_000;
/** Thumbnails no post names are kept this long (an editor may still be open), then swept. */
export const ORPHAN_AGE_MS = 24 * HOUR_MS;
/** Temporary files of an upload cut short by a crash are removed after this long. */
export const TEMP_FILE_AGE_MS = HOUR_MS;

/** The thumbnail key a post's thumbnail URL names (absolute or a path), as SQL over `posts.thumbnail`. */
const REFERENCED_KEYS = `SELECT DISTINCT substring(p.thumbnail from '/images/thumbnails/([0-9a-f]{32})-') AS key
  FROM posts p WHERE p.thumbnail LIKE '%/images/thumbnails/%'`;

export interface SweepResult {
  /** Thumbnails (rows and files) removed because no post names them and they are older than a day. */
  thumbnails: string[];
  /** Files on disk without a row (older than a day): left by a crash between write and record. */
  strayFiles: string[];
}

/**
 * The images API on the host root (docs/requirements.md#api-images): upload requirements, validation,
 * thumbnail upload with responsive variants, deletion by owner or ADMIN, and the orphan sweep.
 */
@Injectable()
export class ImagesService {
  private readonly logger = new Logger('Images');

  constructor(
    private readonly storage: ImageStorageService,
    @InjectRepository(Thumbnail) private readonly thumbnails: Repository<Thumbnail>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly decodes: DecodeQueue,
  ) {}

  uploadInfo(): ImageUploadInfoDto {
    return {
      maxSize: MAX_IMAGE_BYTES,
      allowedFormats: [...ALLOWED_FORMATS],
      recommendedDimensions: { ...RECOMMENDED_DIMENSIONS },
      maxDimensions: { ...MAX_DIMENSIONS },
    };
  }

  async validate(file: UploadedImage | undefined): Promise<ImageValidationDto> {
    try {
      const { facts, warnings } = await this.decodes.run(() => validateThumbnail(file));
      return { width: facts.width, height: facts.height, format: facts.format, size: facts.size, warnings };
    } catch (error) {
      throw rejected(error);
    }
  }

  /**
   * Re-encodes the image (full size + variants), writes every file under a new random key or none,
   * and records the owner. Any failure leaves no file and no row behind.
   */
  async uploadThumbnail(owner: AuthUser, file: UploadedImage | undefined): Promise<ThumbnailUploadDto> {
    let encoded: Awaited<ReturnType<typeof encodeThumbnail>>;
    try {
      encoded = await this.decodes.run(() => encodeThumbnail(file));
    } catch (error) {
      throw rejected(error);
    }
    const { width, height } = encoded.verdict.facts;
    const key = randomBytes(16).toString('hex');
    const name = thumbnailFileName(key, width, height);
    const variantWidths = encoded.variants.map((v) => v.width);
    await this.storage.writeAll('thumbnails', [
      { name, data: encoded.full },
      ...encoded.variants.map((v) => ({ name: variantFileName(key, v.width), data: v.data })),
    ]);
    try {
      await this.thumbnails.insert({ name, ownerId: owner.id, width, height, variantWidths });
    } catch (error) {
      await this.storage.removeAll('thumbnails', thumbnailFiles(name, variantWidths));
      throw error;
    }
    return this.toUploadResponse(name, width, height, variantWidths, encoded.verdict.warnings);
  }

  /**
   * Deletes a thumbnail and its variants: the owner or an ADMIN, and only while no post shows it
   * (409: clear the post's thumbnail first; the sweep removes it a day after it was uploaded).
   */
  async deleteThumbnail(caller: AuthUser, filename: string): Promise<void> {
    const parsed = parseThumbnailName(filename);
    if (!parsed) throw new BadRequestException(ImagesMessages.INVALID_FILENAME);
    const row = await this.thumbnails.findOne({ where: { name: filename } });
    if (!row) throw new NotFoundException(ImagesMessages.NOT_FOUND);
    if (row.ownerId !== caller.id && caller.role !== RoleName.ADMIN) throw new ForbiddenException(ImagesMessages.DELETE_FORBIDDEN);
    const removed = (await this.dataSource.query(
      `DELETE FROM thumbnails t WHERE t.id = $1
         AND NOT EXISTS (SELECT 1 FROM posts p WHERE p.thumbnail LIKE '%/images/thumbnails/' || $2 || '-%')
       RETURNING t.name, t.variant_widths AS "variantWidths"`,
      [row.id, parsed.key],
    )) as [{ name: string; variantWidths: number[] }[], number];
    const [deleted] = removed[0];
    if (!deleted) {
      if (await this.thumbnails.exists({ where: { id: row.id } })) throw new ConflictException(ImagesMessages.IN_USE);
      throw new NotFoundException(ImagesMessages.NOT_FOUND);
    }
    await this.storage.removeAll('thumbnails', thumbnailFiles(deleted.name, deleted.variantWidths));
  }

  /**
   * An erased account's thumbnails, in the erasure's transaction: those a post still
   * shows (the posts given to 'Former author') go to `keeperId`; the rows of the others are deleted.
   * Answers the files to delete once the transaction has committed (`removeFiles`).
   */
  async releaseOwner(manager: EntityManager, ownerId: number, keeperId: number): Promise<string[]> {
    await manager.query(
      `WITH referenced AS (${REFERENCED_KEYS})
       UPDATE thumbnails t SET owner_id = $2 WHERE t.owner_id = $1 AND EXISTS (SELECT 1 FROM referenced r WHERE r.key = split_part(t.name, '-', 1))`,
      [ownerId, keeperId],
    );
    const [rows] = (await manager.query(`DELETE FROM thumbnails WHERE owner_id = $1 RETURNING name, variant_widths AS "variantWidths"`, [
      ownerId,
    ])) as [{ name: string; variantWidths: number[] }[], number];
    return rows.flatMap((row) => thumbnailFiles(row.name, row.variantWidths));
  }

  /** Deletes thumbnail files whose rows are gone (after the transaction that deleted them committed). */
  removeFiles(files: readonly string[]): Promise<void> {
    return this.storage.removeAll('thumbnails', files);
  }

  /**
   * Removes thumbnails older than a day that no post's thumbnail names (rows first, in one
   * statement, so two instances never both act on one; then their files), files without a row
   * older than a day, and temporary files older than an hour.
   */
  async sweepOrphans(): Promise<SweepResult> {
    const [rows] = (await this.dataSource.query(
      `WITH referenced AS (${REFERENCED_KEYS})
       DELETE FROM thumbnails t
        WHERE t.created_at < now() - make_interval(secs => $1::double precision / 1000)
          AND NOT EXISTS (SELECT 1 FROM referenced r WHERE r.key = split_part(t.name, '-', 1))
       RETURNING t.name, t.variant_widths AS "variantWidths"`,
      [ORPHAN_AGE_MS],
    )) as [{ name: string; variantWidths: number[] }[], number];
    for (const row of rows) await this.storage.removeAll('thumbnails', thumbnailFiles(row.name, row.variantWidths));

    const oldFiles = await this.storage.listOld('thumbnails', ORPHAN_AGE_MS, TEMP_FILE_AGE_MS);
    const keys = [...new Set(oldFiles.map((name) => keyOfThumbnailFile(name)).filter((key): key is string => !!key))];
    let strayFiles: string[] = [];
    if (keys.length) {
      const known = (await this.dataSource.query(
        `SELECT split_part(name, '-', 1) AS key FROM thumbnails WHERE split_part(name, '-', 1) = ANY($1::text[])`,
        [keys],
      )) as { key: string }[];
      const recorded = new Set(known.map((k) => k.key));
      strayFiles = oldFiles.filter((name) => !recorded.has(keyOfThumbnailFile(name) as string));
      await this.storage.removeAll('thumbnails', strayFiles);
    }
    const removed = rows.map((r) => r.name);
    if (removed.length || strayFiles.length)
      this.logger.log(`swept ${removed.length} unused thumbnails and ${strayFiles.length} stray files`);
    return { thumbnails: removed, strayFiles };
  }

  private toUploadResponse(name: string, width: number, height: number, variantWidths: number[], warnings: string[]): ThumbnailUploadDto {
    const key = parseThumbnailName(name)!.key;
    const url = this.storage.urlOf('thumbnails', name);
    const variants = variantWidths.map((w) => ({ width: w, url: this.storage.urlOf('thumbnails', variantFileName(key, w)) }));
    const srcset = [...variants.map((v) => `${v.url} ${v.width}w`), `${url} ${width}w`].join(', ');
    return { url, imageUrl: url, filename: name, width, height, variants, srcset, warnings };
  }
}

function rejected(error: unknown): unknown {
  return error instanceof ImageRejectedError ? imageRejected(error.reasons) : error;
}
