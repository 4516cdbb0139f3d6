import { startApp } from './lib/first-screen';
import './styles/global.css';

const root = document.getElementById('root');
if (root) void startApp(root, () => import('./app/boot'));
