import { describe, expect, it } from 'vitest';
import { parseLesson } from './lesson-text';

describe('the lesson markup', () => {
  it('reads headings, lists, pictures and paragraphs, and nothing else as markup', () => {
    const hash = 'a'.repeat(64);
    const blocks = parseLesson(
      `## Soil\nDark soil\nholds water.\n\n- one\n- two\n1. first\n![Rows](${hash})\n<script>alert(1)</script>`,
    );
    expect(blocks).toEqual([
      { kind: 'h2', text: 'Soil' },
      { kind: 'p', text: 'Dark soil holds water.' },
      { kind: 'ul', items: ['one', 'two'] },
      { kind: 'ol', items: ['first'] },
      { kind: 'img', caption: 'Rows', hash },
      { kind: 'p', text: '<script>alert(1)</script>' },
    ]);
  });
});
