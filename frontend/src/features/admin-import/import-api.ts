/** The import calls from the browser: upload and start, follow, cancel (admin/imports). */
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { upload } from '../../lib/api/upload';
import type { components } from '@inkwell/client/schema';

export type SiteImport = components['schemas']['ImportResponseDto'];
export type ImportSourceName = SiteImport['source'];

/** What the admin chose: the format, the file, a media zip, and whether the new authors are e-mailed an invitation. */
export interface ImportChoice {
  source: ImportSourceName;
  file: Blob;
  media: Blob | null;
  inviteAuthors: boolean;
}

/** POST /admin/imports?source=…[&inviteAuthors=true] (multipart file, optional media): the queued import. */
export function startImport(
  { source, file, media, inviteAuthors }: ImportChoice,
  onProgress: (percent: number) => void,
): Promise<SiteImport | undefined> {
  const query: Record<string, string> = inviteAuthors ? { source, inviteAuthors: 'true' } : { source };
  return upload('/api/v1/admin/imports', media ? { file, media } : { file }, { query, onProgress });
}

export function readImport(id: number): Promise<SiteImport> {
  return unwrap(browserApi().GET('/api/v1/admin/imports/{id}', { params: { path: { id } } }));
}

export function listImports(): Promise<SiteImport[]> {
  return unwrap(browserApi().GET('/api/v1/admin/imports'));
}

export function cancelImport(id: number): Promise<SiteImport> {
  return unwrap(browserApi().POST('/api/v1/admin/imports/{id}/cancel', { params: { path: { id } } }));
}

export const isRunning = (state: SiteImport['state']): boolean => state === 'QUEUED' || state === 'RUNNING';
