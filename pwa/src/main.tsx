import { startApp } from './lib/first-screen';
import { prepareHome, preparePage } from './lib/app-files';
import './styles/global.css';

const root = document.getElementById('root');
// The app's code, and with it (not once it has run) the opened page's files and the reader's words.
const load = () => {
  preparePage(location.pathname);
  return import('./app/boot');
};
// Someone filling the server's sign-in form gets the home's files with the app's.
if (root) void startApp(root, load, prepareHome);
