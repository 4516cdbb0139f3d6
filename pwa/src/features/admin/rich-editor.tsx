// A small editor for posts (docs/news.md): headings, bold, italic, lists, quotes,
// links and pictures from our media store. The browser's editing commands write the
// HTML; the server cleans whatever arrives before it stores it. Only the admin's
// screens load this file, so readers never download it.
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { checkImage } from '../../lib/image-pick';
import { usePictureUpload } from './use-picture-upload';
import './rich-editor.css';

type Command = [
  key: 'heading' | 'subheading' | 'paragraph' | 'bold' | 'italic' | 'bullets' | 'numbers' | 'quote',
  command: string,
  argument?: string,
];

const COMMANDS: Command[] = [
  ['heading', 'formatBlock', 'h2'],
  ['subheading', 'formatBlock', 'h3'],
  ['paragraph', 'formatBlock', 'p'],
  ['bold', 'bold'],
  ['italic', 'italic'],
  ['bullets', 'insertUnorderedList'],
  ['numbers', 'insertOrderedList'],
  ['quote', 'formatBlock', 'blockquote'],
];

/** The browser's editing command (old, but what every browser implements for contenteditable). */
function run(command: string, argument?: string) {
  document.execCommand(command, false, argument);
}

export function RichEditor({
  label,
  initial,
  onChange,
  onProblem,
}: {
  label: string;
  /** The HTML to start from (read once). */
  initial: string;
  onChange(html: string): void;
  /** A picture was refused or could not be sent: the error code, or null. */
  onProblem(code: string | null): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const area = useRef<HTMLDivElement>(null);
  const saved = useRef<Range | null>(null);
  const [linking, setLinking] = useState(false);
  const [url, setUrl] = useState('https://');
  const [sending, setSending] = useState(false);
  const upload = usePictureUpload();

  useEffect(() => {
    if (area.current) area.current.innerHTML = initial;
    // Read once: later renders must not move the caret.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const remember = () => {
    const selection = window.getSelection();
    if (selection?.rangeCount && area.current?.contains(selection.anchorNode)) saved.current = selection.getRangeAt(0);
  };
  const restore = () => {
    area.current?.focus();
    const selection = window.getSelection();
    if (saved.current && selection) {
      selection.removeAllRanges();
      selection.addRange(saved.current);
    }
  };
  const apply = (command: string, argument?: string) => {
    restore();
    run(command, argument);
    onChange(area.current?.innerHTML ?? '');
  };
  const addPicture = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const code = checkImage(file);
    onProblem(code);
    if (code) return;
    setSending(true);
    try {
      const hash = await upload(file);
      apply('insertImage', `/media/${hash}-1024.jpg`);
    } catch {
      onProblem('picture_failed');
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="rich-editor field">
      <span id={`${id}-label`} className="picker-label">
        {label}
      </span>
      <div className="editor-toolbar" role="toolbar" aria-label={t('editor.toolbar')}>
        {COMMANDS.map(([key, command, argument]) => (
          <button
            key={key}
            type="button"
            className="button secondary small"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => apply(command, argument)}
          >
            {t(`editor.${key}`)}
          </button>
        ))}
        <button
          type="button"
          className="button secondary small"
          aria-expanded={linking}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => (remember(), setLinking((on) => !on))}
        >
          {t('editor.link')}
        </button>
        <label className="button secondary small">
          {sending ? t('editor.sending') : t('editor.picture')}
          <input type="file" accept="image/*" className="visually-hidden" onChange={(e) => void addPicture(e)} />
        </label>
      </div>
      {linking && (
        <div className="editor-link">
          <label>
            {t('editor.link_url')}
            <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} />
          </label>
          <button
            type="button"
            className="button small"
            onClick={() => {
              setLinking(false);
              if (/^(https?:|mailto:|tel:|\/)/i.test(url.trim())) apply('createLink', url.trim());
            }}
          >
            {t('editor.add_link')}
          </button>
        </div>
      )}
      <div
        ref={area}
        className="editor-area"
        contentEditable
        role="textbox"
        aria-multiline="true"
        aria-labelledby={`${id}-label`}
        tabIndex={0}
        onInput={() => onChange(area.current?.innerHTML ?? '')}
        onKeyUp={remember}
        onMouseUp={remember}
        onBlur={remember}
      />
    </div>
  );
}
