// Picking an image from the phone: checked at once (an image, at most 5 MB,
// as the server will check), with a preview URL released when no longer shown.
import { useEffect, useState, type ChangeEvent } from 'react';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** `null` when the file is fine, else the error code (translated under `errors.*`). */
export function checkImage(file: File): string | null {
  if (!file.type.startsWith('image/')) return 'image_invalid';
  if (file.size > MAX_IMAGE_BYTES) return 'image_too_large';
  return null;
}

export function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return setUrl(null);
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

/** The picked file and its preview; `onProblem` hears the error codes of a refused file (or null). */
export function useImagePick(onProblem: (codes: string[] | null) => void) {
  const [file, setFile] = useState<File | null>(null);
  const preview = useObjectUrl(file);
  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const next = event.target.files?.[0] ?? null;
    const code = next && checkImage(next);
    if (code) {
      event.target.value = '';
      onProblem([code]);
      return;
    }
    onProblem(null);
    setFile(next);
  };
  return { file, preview, pick, clear: () => setFile(null) };
}
