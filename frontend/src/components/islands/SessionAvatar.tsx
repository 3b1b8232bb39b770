import { useEffect, useState } from 'react';
import { onAvatarChange } from '../../lib/session-browser';
import { AvatarImage } from './form-controls';

/** The header's avatar of the signed-in user: follows an upload or removal on /account at once. */
export default function SessionAvatar({ name, src }: { name: string; src: string | null }) {
  const [avatar, setAvatar] = useState(src);
  useEffect(() => onAvatarChange(setAvatar), []);
  return <AvatarImage name={name} src={avatar} size="sm" />;
}
