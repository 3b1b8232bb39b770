import { TagRefDto, TagResponseDto } from './dto/tag-response.dto';
import { Tag } from './entities/tag.entity';

export function toTagResponse(tag: Tag, postCount: number): TagResponseDto {
  return {
    id: tag.id,
    name: tag.name,
    slug: tag.slug,
    description: tag.description,
    color: tag.color,
    icon: tag.icon,
    isActive: tag.isActive,
    status: tag.isActive ? 'ACTIVE' : 'INACTIVE',
    postCount,
    createdAt: tag.createdAt.toISOString(),
    updatedAt: tag.updatedAt.toISOString(),
  };
}

export function toTagRef(tag: Pick<Tag, 'id' | 'name' | 'slug' | 'color'>): TagRefDto {
  return { id: tag.id, name: tag.name, slug: tag.slug, color: tag.color };
}
