import { Suspense } from 'react';
import { RouterProvider, type DataRouter } from 'react-router';
import { Spinner } from '../components/spinner';
import { ToastProvider } from '../components/toast';
import { SessionProvider } from '../lib/session';
import { SyncProvider } from '../lib/sync/provider';

export function App({ router }: { router: DataRouter }) {
  return (
    // The outer Suspense waits for a lazily loaded catalogue (French, Kiswahili).
    <Suspense fallback={<Spinner label="MAVUNO" />}>
      <SessionProvider>
        <SyncProvider>
          <ToastProvider>
            <RouterProvider router={router} />
          </ToastProvider>
        </SyncProvider>
      </SessionProvider>
    </Suspense>
  );
}
