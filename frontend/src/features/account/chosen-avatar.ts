/**
 * The avatar chosen on the account page and not uploaded yet, shared by the page's two
 * islands: the avatar card holds it, the profile form's Save uploads it first, so a chosen picture
 * is never dropped by saving the profile. One module instance per page, so both islands see it.
 */
import { AccountTexts } from './texts';

/** Uploads the chosen avatar; answers whether it is stored now. */
type UploadChosen = () => Promise<boolean>;

let chosen: UploadChosen | undefined;

/** The card holds a chosen file (or none): returns the release for its effect's clean-up. */
export function holdChosenAvatar(upload: UploadChosen): () => void {
  chosen = upload;
  return () => {
    if (chosen === upload) chosen = undefined;
  };
}

/** The chosen avatar could not be uploaded: the profile save stops (the card shows the reason). */
export class AvatarNotUploaded extends Error {
  constructor() {
    super(AccountTexts.PROFILE_NOT_SAVED_AVATAR);
    this.name = 'AvatarNotUploaded';
  }
}

/** Uploads the chosen avatar, if any, before the profile is saved; throws AvatarNotUploaded when it fails. */
export async function uploadChosenAvatar(): Promise<void> {
  if (chosen && !(await chosen())) throw new AvatarNotUploaded();
}
