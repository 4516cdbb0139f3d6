// Sends a picked picture for the admin's forms (courses, posts): resized on the
// phone, sent to /uploads by its hash; answers the hash.
import { keepPhoto, uploadPhotos } from '../../lib/sync/photos';
import { useLocalDb } from '../../lib/sync/provider';

export function usePictureUpload() {
  const db = useLocalDb();
  return async (file: File): Promise<string> => {
    if (!db) throw new Error('no local database');
    const hash = await keepPhoto(db, file);
    await uploadPhotos(db, [hash]);
    return hash;
  };
}
