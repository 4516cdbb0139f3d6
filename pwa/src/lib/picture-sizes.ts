// A page's main picture comes in two files (docs/api.md, Media): 720 px for
// phones and 1024 px for wider screens. The browser picks one from how wide
// the page draws the picture; the server's first screens say the same words
// (server/src/web/first_screen/detail.rs), so the app's picture is the file
// the first screen already fetched.

/** How wide each page draws its main picture (its CSS, as `sizes`). */
export const PICTURE_WIDTHS = {
  product: '(min-width: 1120px) 532px, (min-width: 700px) 50vw, calc(100vw - 32px)',
  course: '(min-width: 1120px) 312px, (min-width: 900px) 27vw, calc(100vw - 74px)',
  article: '(min-width: 560px) 528px, calc(100vw - 32px)',
} as const;

const DISPLAY = /^\/media\/([0-9a-f]{64})-1024\.jpg$/;

/** The `srcset` of a 1024 px media picture (with its 720 px file); none for any other address. */
export function pictureSet(url: string | undefined): string | undefined {
  const hash = url && DISPLAY.exec(url)?.[1];
  return hash ? `/media/${hash}-720.jpg 720w, ${url} 1024w` : undefined;
}
