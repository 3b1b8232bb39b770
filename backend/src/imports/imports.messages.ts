/** Texts of site import and export (beyond the specs, in their tone). */
export const ImportsMessages = {
  AUTH_REQUIRED: 'Authentication required. Please log in to import or export the site.',
  FORBIDDEN: 'You do not have permission to import or export the site.',
  NOT_FOUND: 'Import not found.',
  FILE_REQUIRED: 'Choose the export file to import.',
  FILE_TOO_LARGE: 'The file is too large to import (at most 1 GB).',
  UPLOAD_INVALID: 'The upload could not be read. Send the export file as the "file" field (and a media zip as "media").',
  NOT_WORDPRESS: 'This is not a WordPress export: choose the .xml file WordPress makes in Tools → Export.',
  NOT_GHOST: 'This is not a Ghost export: choose the .json file Ghost makes in Settings → Labs → Export.',
  NOT_INKWELL: 'This is not an Inkwell export: choose the .zip file made on Export.',
  MEDIA_NOT_ZIP: 'The media file must be a .zip archive.',
  ALREADY_RUNNING: 'An import is already running. Wait for it to finish or cancel it first.',
  NOT_CANCELLABLE: 'This import has already ended.',
  INTERRUPTED: 'The server stopped while this import ran. Run the same file again: what was imported is kept and the rest follows.',
  STARTED: 'Import started',
  CANCEL_REQUESTED: 'Import cancelled',
} as const;
