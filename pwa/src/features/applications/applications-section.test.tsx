import 'fake-indexeddb/auto';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../lib/i18n';
import { LocalDb } from '../../lib/sync/local-db';
import { registerEntity } from '../../lib/sync/engine';
import { ApplicationsSection } from './applications-section';
import { surveyEntity } from '../../lib/entities/applications';

let db: LocalDb;
let counter = 0;

beforeAll(async () => {
  registerEntity('survey', surveyEntity);
  await setupI18n().changeLanguage('en');
});
beforeEach(async () => {
  counter += 1;
  db = new LocalDb(`applications-${counter}`);
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  await db.surveys.put({
    uid: 'u1',
    status: 'draft',
    land_size: '1-2 hectares',
    challenges: 'Pests',
    created_at: '2026-11-20T08:00:00Z',
  });
  await db.setMeta('next_mutation_id', 2);
  await db.outbox.add({
    mutation_id: 1,
    name: 'survey.create',
    args: { uid: 'u1', status: 'pending', answers: { land_size: '1-2 hectares', challenges: 'Pests' } },
    uid: 'u1',
    state: 'rejected',
    result: { mutation_id: 1, status: 'rejected', code: 'validation_failed', error_codes: { work_type: ['required'] } },
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  db.close();
});

describe('applications on this phone', () => {
  it('a refused change says why, keeps the answers, and is replaced by the fix', async () => {
    render(<ApplicationsSection db={db} />);
    expect(await screen.findByText(/Refused: Please check the form/)).toBeInTheDocument();
    expect(screen.getByText('Draft')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Fix and resend' }));

    expect(await screen.findByText('Please answer this question')).toBeInTheDocument();
    expect(screen.getByLabelText(/^How much land/)).toHaveValue('1-2 hectares');
    expect(screen.getByLabelText(/^Main challenges/)).toHaveValue('Pests');

    // Typing saves the draft by itself; the new change supersedes the refused one.
    fireEvent.change(screen.getByLabelText(/^Who works on your farm/), { target: { value: 'With family' } });
    await waitFor(
      async () => {
        const outbox = await db.outbox.toArray();
        expect(outbox.map((e) => e.state)).toEqual(['queued']);
        expect(outbox[0]!.args).toMatchObject({
          uid: 'u1',
          answers: { work_type: 'With family', land_size: '1-2 hectares' },
        });
      },
      { timeout: 3000 },
    );
    expect(await db.surveys.get('u1')).toMatchObject({ work_type: 'With family', status: 'draft' });
    expect(screen.getByText('Draft saved on this phone')).toBeInTheDocument();
  });

  it('the conditional questions appear only when they apply', async () => {
    render(<ApplicationsSection db={db} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Fix and resend' }));
    expect(screen.queryByLabelText(/^About what share is lost/)).toBeNull();
    fireEvent.click(screen.getByLabelText('I lose part of my harvest after harvesting'));
    expect(screen.getByLabelText(/^About what share is lost/)).toHaveValue(0);
    expect(screen.queryByLabelText(/^What makes selling difficult/)).toBeNull();
    fireEvent.click(screen.getByLabelText('I have difficulties selling'));
    expect(screen.getByLabelText(/^What makes selling difficult/)).toBeInTheDocument();
  });
});
