import { startApp } from './lib/first-screen';
import './styles/global.css';

const root = document.getElementById('root');
// Someone filling the server's sign-in form gets the home's code with the app's.
const prepareHome = () => void import('./app/dashboard/dashboard-page').catch(() => undefined);
if (root) void startApp(root, () => import('./app/boot'), prepareHome);
