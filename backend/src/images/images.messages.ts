/**
 * Texts of the images API (docs/requirements.md#validation-image-upload, docs/requirements.md#errors-upload, docs/requirements.md#validation-thumbnail
 * 'Upload'), verbatim where the spec gives them. The spec's client shows the server's message, so
 * the checks answer with the same words the client's own pre-validation uses.
 */
export const ImagesMessages = {
  /** No file under the multipart field `image` (or not a multipart body at all). */
  FILE_REQUIRED: 'Please select a valid file',
  FILE_TYPE: 'Please select a valid image file (JPG, PNG, WEBP, GIF)',
  FILE_EMPTY: 'Selected file is empty. Please choose a valid image file',
  fileTooLarge: (bytes: number | undefined) =>
    bytes === undefined
      ? 'File size cannot exceed 10MB'
      : `File size (${(bytes / 1024 / 1024).toFixed(2)} MB) exceeds the maximum limit of 10MB`,
  /** The bytes say JPEG/PNG/WebP/GIF but do not decode (truncated, corrupt, a lying header). */
  LOAD_FAILED: 'Failed to load image for validation',
  dimensionsTooDifferent: (width: number, height: number) =>
    `Image dimensions ${width}x${height}px are too different from recommended 800x400px`,
  /** docs/requirements.md#errors-upload 'Invalid image dimensions', with the measured size and the limit. */
  dimensionsTooLarge: (width: number, height: number) =>
    `Invalid image dimensions: ${width}x${height}px exceeds the maximum of 2048x2048px`,
  DIMENSIONS_WARNING: 'Recommended size is 800x400px for optimal display',
  ANIMATION_WARNING: 'Animated images are stored as their first frame',

  /** The decode queue is full (503 with Retry-After). */
  BUSY: 'Too many images are being processed right now. Please try again in a few seconds.',
  /** Past UPLOAD_LIMIT (429 with Retry-After). */
  TOO_MANY_UPLOADS: 'Too many uploads. Please wait before uploading another image.',

  VALID: 'Image is valid',
  INFO: 'Upload requirements',
  THUMBNAIL_UPLOADED: 'Thumbnail uploaded successfully!',

  UPLOAD_AUTH_REQUIRED: 'Authentication required. Please log in to upload images.',
  UPLOAD_FORBIDDEN: 'You do not have permission to upload images.',
  DELETE_AUTH_REQUIRED: 'Authentication required. Please log in to delete images.',
  DELETE_FORBIDDEN: 'You do not have permission to delete this image.',
  INVALID_FILENAME: 'Invalid image file name.',
  NOT_FOUND: 'Image not found.',
  IN_USE: 'This image is the thumbnail of a post. Remove it from the post first.',
} as const;
