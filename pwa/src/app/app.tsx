import { Suspense } from 'react';
import { BrowserRouter } from 'react-router';
import { Spinner } from '../components/spinner';
import { ToastProvider } from '../components/toast';
import { SessionProvider } from '../lib/session';
import { SyncProvider } from '../lib/sync/provider';
import { AppRoutes } from './router';

export function App() {
  return (
    // The outer Suspense waits for a lazily loaded catalogue (French, Kiswahili).
    <Suspense fallback={<Spinner label="MAVUNO" />}>
      <SessionProvider>
        <SyncProvider>
          <BrowserRouter>
            <ToastProvider>
              <AppRoutes />
            </ToastProvider>
          </BrowserRouter>
        </SyncProvider>
      </SessionProvider>
    </Suspense>
  );
}
