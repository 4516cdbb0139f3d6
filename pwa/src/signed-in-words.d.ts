// The words of the signed-in screens, a file per language that the build makes from the
// catalogues (vite.config.ts, `catalogueParts`).
declare module 'virtual:signed-in-words/*' {
  const words: Record<string, unknown>;
  export default words;
}
