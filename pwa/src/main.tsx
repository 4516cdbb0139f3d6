import { startApp } from './lib/first-screen';
import './styles/global.css';

const root = document.getElementById('root');
// Someone filling the server's sign-in form gets the home's code with the app's. The same
// import as app/warm-screens.ts's `prepareHome`, which the app's own login page uses; not
// imported from there: importing that module here split four more files into the install
// (+3.5 KB on every first visit), while this import leaves the chunks as they are.
const prepareHome = () => void import('./app/dashboard/dashboard-page').catch(() => undefined);
if (root) void startApp(root, () => import('./app/boot'), prepareHome);
