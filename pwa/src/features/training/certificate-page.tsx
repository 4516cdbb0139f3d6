// The public check of a certificate (/certificates/:code): anyone a learner shows
// their certificate to can see that it is real.
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../lib/api';
import { paths } from '../../lib/paths';
import { formatDate } from '../../lib/format';
import { Spinner } from '../../components/spinner';
import { LoadFailed } from '../../components/load-failed';
import type { Certificate } from '../../lib/entities/courses';
import { usePageHead } from '../../lib/page-head';

interface Check {
  certificate: Certificate;
  course_id: number | null;
}

export function CertificatePage() {
  usePageHead('certificate');
  const { t } = useTranslation();
  const { code = '' } = useParams();
  const [check, setCheck] = useState<Check | null | { error: unknown } | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    setCheck(undefined);
    api<Check>(`/certificates/${encodeURIComponent(code)}`).then(setCheck, (error: unknown) =>
      setCheck(error instanceof ApiError && error.status === 404 ? null : { error }),
    );
  }, [code, attempt]);
  if (check === undefined) return <Spinner label={t('training.checking')} />;
  if (check && 'error' in check) {
    return (
      <LoadFailed
        title={t('training.check_title')}
        error={check.error}
        fallbackKey="training.check_failed"
        onRetry={() => setAttempt((n) => n + 1)}
      />
    );
  }
  return (
    <section className="page narrow certificate-check" aria-labelledby="check-title">
      <h1 id="check-title">{t('training.check_title')}</h1>
      {check === null ? (
        <p role="alert" className="card notice">
          {t('training.check_unknown', { code })}
        </p>
      ) : (
        <div className="card">
          <p className="badge green">{t('training.check_valid')}</p>
          <dl>
            <dt>{t('training.check_learner')}</dt>
            <dd>{check.certificate.learner_name}</dd>
            <dt>{t('training.check_course')}</dt>
            <dd>
              {check.course_id !== null ? (
                <Link to={paths.course(check.course_id)}>{check.certificate.course_title}</Link>
              ) : (
                check.certificate.course_title
              )}
            </dd>
            <dt>{t('training.check_issued')}</dt>
            <dd>{formatDate(check.certificate.issued_at)}</dd>
            <dt>{t('training.check_code')}</dt>
            <dd>
              <code>{check.certificate.code}</code>
            </dd>
          </dl>
        </div>
      )}
    </section>
  );
}
