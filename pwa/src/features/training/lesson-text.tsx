// The lesson markup (docs/training.md) drawn as React elements, never as HTML (under
// the lesson's own h2, `## ` is an h3):
// `## `/`### ` headings, `- ` and `1. ` lists, `![caption](sha256)` pictures on
// their own line, `**bold**`, blank lines between paragraphs.
import { useEffect, useState, type ReactNode } from 'react';
import { pictureSource } from '../../lib/entities/course-download';

type Block =
  | { kind: 'h2' | 'h3' | 'p'; text: string }
  | { kind: 'ul' | 'ol'; items: string[] }
  | { kind: 'img'; caption: string; hash: string };

export function parseLesson(body: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'p', text: paragraph.join(' ') });
    paragraph = [];
  };
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    const picture = /^!\[([^\]]*)\]\(([0-9a-f]{64})\)$/.exec(line);
    const item = /^(-|\d+\.) (.*)$/.exec(line);
    const heading = /^(##|###) (.*)$/.exec(line);
    if (!line || picture || item || heading) flush();
    if (heading) blocks.push({ kind: heading[1] === '##' ? 'h2' : 'h3', text: heading[2]! });
    else if (picture) blocks.push({ kind: 'img', caption: picture[1]!, hash: picture[2]! });
    else if (item) {
      const kind = item[1] === '-' ? 'ul' : 'ol';
      const last = blocks.at(-1);
      if (last && last.kind === kind) last.items.push(item[2]!);
      else blocks.push({ kind, items: [item[2]!] });
    } else if (line) paragraph.push(line);
  }
  flush();
  return blocks;
}

/** `**bold**` inside a line. */
function inline(text: string): ReactNode[] {
  return text
    .split(/(\*\*[^*]+\*\*)/)
    .map((part, i) =>
      part.startsWith('**') && part.endsWith('**') && part.length > 4 ? (
        <strong key={i}>{part.slice(2, -2)}</strong>
      ) : (
        part
      ),
    );
}

function LessonPicture({ hash, caption }: { hash: string; caption: string }) {
  const url = `/media/${hash}-1024.jpg`;
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    void pictureSource(url).then((found) => {
      if (found.startsWith('blob:')) made = found;
      setSrc(found);
    });
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  return (
    <figure className="lesson-picture">
      {src && <img src={src} alt={caption} width={1024} height={768} loading="lazy" />}
      {caption && <figcaption>{caption}</figcaption>}
    </figure>
  );
}

export function LessonText({ body }: { body: string }) {
  return (
    <div className="lesson-text">
      {parseLesson(body).map((block, i) => {
        switch (block.kind) {
          case 'h2':
            return <h3 key={i}>{inline(block.text)}</h3>;
          case 'h3':
            return <h4 key={i}>{inline(block.text)}</h4>;
          case 'p':
            return <p key={i}>{inline(block.text)}</p>;
          case 'img':
            return <LessonPicture key={i} hash={block.hash} caption={block.caption} />;
          case 'ul':
          case 'ol': {
            const List = block.kind;
            return (
              <List key={i}>
                {block.items.map((text, j) => (
                  <li key={j}>{inline(text)}</li>
                ))}
              </List>
            );
          }
        }
      })}
    </div>
  );
}
