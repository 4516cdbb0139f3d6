// Approve or reject one or many applications, with a comment and the email choice.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/dialog';
import { ErrorBox } from '../../components/form';
import { useToast } from '../../components/toast';
import { errorMessages } from '../../lib/error-text';
import { decide, decideMany, type Decision } from './api';

export function DecisionModal({ ids, onClose, onDone }: { ids: number[]; onClose(): void; onDone(): Promise<void> }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [decision, setDecision] = useState<Decision>('approved');
  const [comment, setComment] = useState('');
  const [notify, setNotify] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const bulk = ids.length > 1;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (bulk) {
        const { results } = await decideMany(ids, decision, comment, notify);
        const done = results.filter((r) => r.success).length;
        toast(
          done === results.length ? 'success' : 'error',
          t('admin.apps.bulk_done', { done, failed: results.length - done }),
        );
      } else {
        await decide(ids[0]!, decision, comment, notify);
        toast('success', t('admin.apps.updated'));
      }
      await onDone();
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  const title = bulk ? t('admin.apps.bulk_title', { count: ids.length }) : t('admin.apps.status_title');
  return (
    <Modal
      title={title}
      closeLabel={t('common.cancel')}
      onClose={onClose}
      actions={
        <button type="submit" form="decision-form" className="button" disabled={busy}>
          {busy ? t('common.saving') : t('admin.apps.update')}
        </button>
      }
    >
      <form id="decision-form" onSubmit={submit} noValidate>
        {error !== null && (
          <ErrorBox messages={errorMessages(error, t, bulk ? 'admin.apps.bulk_failed' : 'admin.apps.update_failed')} />
        )}
        <fieldset className="choice">
          <legend>{t('admin.apps.decision')}</legend>
          {(['approved', 'rejected'] as const).map((value) => (
            <label key={value} className="checkbox">
              <input
                type="radio"
                name="decision"
                value={value}
                checked={decision === value}
                onChange={() => setDecision(value)}
              />
              <span>{t(value === 'approved' ? 'admin.apps.approve' : 'admin.apps.reject')}</span>
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="decision-comment">{t('admin.apps.comment')}</label>
          <textarea id="decision-comment" rows={3} value={comment} onChange={(e) => setComment(e.target.value)} />
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.target.checked)} />
          <span>{t('admin.apps.notify')}</span>
        </label>
      </form>
    </Modal>
  );
}
